import type { ErrorComponentProps } from '@tanstack/react-router'
import { type ComponentType, lazy, type ReactElement, Suspense } from 'react'
import { errorCopy } from './error-copy'

/**
 * The 404 and error pages, loaded only when one is shown, so the JavaScript every page loads does
 * not carry them. The server renders them in full before it sends a byte (server/render-page), so
 * a visitor without JavaScript sees the whole page; in the browser they hydrate once their chunk
 * has arrived. If that chunk cannot be loaded (the visitor went offline, a deploy removed it), the
 * plain version below is shown instead of a blank page.
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

function PlainNotFound() {
  return <PlainPage eyebrow="Error 404" title="Page not found" />
}

function PlainError(_: ErrorComponentProps) {
  return <PlainPage eyebrow={errorCopy.eyebrow} title={errorCopy.title} body={errorCopy.body} />
}

function PlainPage({ eyebrow, title, body }: { eyebrow: string; title: string; body?: string }) {
  return (
    <section className="container-page py-[var(--spacing-section)]" aria-labelledby="plain-page-title">
      <p className="text-eyebrow font-semibold tracking-[0.2em] text-muted uppercase">{eyebrow}</p>
      <h1 id="plain-page-title" className="mt-3 text-h1 font-bold tracking-tight">
        {title}
      </h1>
      {body ? <p className="mt-5 max-w-xl text-lead text-muted">{body}</p> : null}
      <p className="mt-10">
        <a href="/" className="font-semibold text-brand-300 underline underline-offset-4">
          {errorCopy.home}
        </a>
      </p>
    </section>
  )
}

export const LazyNotFound = lazyWithFallback(() => import('./NotFound').then((m) => m.NotFound), PlainNotFound)

export const LazyErrorPage = lazyWithFallback<ErrorComponentProps>(
  () => import('./ErrorPage').then((m) => m.ErrorPage),
  PlainError,
)
