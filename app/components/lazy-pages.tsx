import type { ErrorComponentProps } from '@tanstack/react-router'
import { type ComponentType, lazy, type ReactElement, Suspense } from 'react'
import { PlainErrorPage } from '~/document/PlainErrorPage'

/** The 404 and error pages, out of every page's JavaScript; a chunk that cannot load shows PlainErrorPage. */
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
