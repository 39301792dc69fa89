import { useRouterState } from '@tanstack/react-router'
import type { ReactNode } from 'react'

/** A fade on every load and navigation, from a visible opacity, so content is readable in the first frame. */
export function PageTransition({ children }: { children: ReactNode }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  return (
    <div key={pathname} className="animate-page-in">
      {children}
    </div>
  )
}
