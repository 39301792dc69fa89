import { useRouterState } from '@tanstack/react-router'
import type { ReactNode } from 'react'

/**
 * Fades page content in over 0.5 s: on the first, server-rendered load (a CSS animation that
 * needs no JavaScript and starts with the first paint) and again after each client-side
 * navigation (the new key mounts a new element, so the animation runs again). The fade starts
 * from a visible opacity (app.css, `page-in`), so content is readable from the first frame.
 * Reduced motion switches it off (app.css).
 */
export function PageTransition({ children }: { children: ReactNode }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  return (
    <div key={pathname} className="animate-page-in">
      {children}
    </div>
  )
}
