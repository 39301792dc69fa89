import type { ErrorComponentProps } from '@tanstack/react-router'
import { type ComponentType, lazy, type ReactElement, Suspense } from 'react'
import { PlainErrorPage } from '~/document/PlainErrorPage'

/**
 * The 404 and error pages, loaded only when one is shown, so the JavaScript every page loads does
 * not carry them. The server renders them in full before it sends a byte (document/render-page.server.tsx), so
 * a visitor without JavaScript sees the whole page; in the browser they hydrate once their chunk
 * has arrived. If that chunk cannot be loaded (the visitor went offline, a deploy removed it), the
 * plain version (PlainErrorPage) is shown instead of a blank page.
 */
export function lazyWithFallback<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Fallback: ComponentType<P>,
): (props: P) => ReactElement {
  const Page = lazy(() =>
    load().then(
      (component) => ({ default: component }),
      () => ({ default: Fallback }),
    ),
  )
  return function LazyPage(props: P) {
    return (
      <Suspense fallback={null}>
        <Page {...props} />
      </Suspense>
    )
  }
}

export const LazyNotFound = lazyWithFallback(
  () => import('./ErrorPage').then((m) => m.NotFoundPage),
  () => <PlainErrorPage kind="not-found" />,
)

export const LazyErrorPage = lazyWithFallback<ErrorComponentProps>(
  () => import('./ErrorPage').then((m) => m.RenderErrorPage),
  () => <PlainErrorPage kind="error" />,
)
