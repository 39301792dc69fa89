import { useRouterState } from '@tanstack/react-router'
import type { ReactNode } from 'react'

/**
 * A 0.5 s fade on the first load (CSS, no JavaScript) and after each client-side navigation (a new
 * key); from a visible opacity (app.css, `page-in`), so content is readable in the first frame.
 */
export function PageTransition({ children }: { children: ReactNode }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  return (
    <div key={pathname} className="animate-page-in">
      {children}
    </div>
  )
}
