import { useRouterState } from '@tanstack/react-router'
import { type ReactNode, useEffect, useRef, useState } from 'react'

/**
 * Fades page content in over 0.5 s after a client-side navigation.
 * The first, server-rendered page is never hidden: the animation class is only
 * added once the path has changed in the browser. Reduced motion switches it off (app.css).
 */
export function PageTransition({ children }: { children: ReactNode }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const firstPath = useRef(pathname)
  const [navigated, setNavigated] = useState(false)

  useEffect(() => {
    if (pathname !== firstPath.current) setNavigated(true)
  }, [pathname])

  return (
    <div key={pathname} className={navigated ? 'animate-page-in' : undefined}>
      {children}
    </div>
  )
}
