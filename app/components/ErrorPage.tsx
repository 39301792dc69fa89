import { Link } from '@tanstack/react-router'
import { Icon } from '~/components/Icon'
import { type ErrorKind, errorPages } from '~/content/error-pages'

const button = 'inline-flex min-h-11 items-center gap-2 rounded-full px-6 font-semibold'
const primary = `${button} bg-brand-400 text-on-brand hover:bg-brand-300`
const secondary = `${button} border border-line-strong text-fg`

/**
 * The designed 404 and error pages, in the site's layout; never the error's details. Try again loads
 * the page anew: a browser keeps a failed module fetch for the document's life (HTML's module map).
 */
export function ErrorPage({ kind }: { kind: ErrorKind }) {
  const words = errorPages[kind]
  const titleId = `${kind}-title`
  return (
    <section className="container-page py-[var(--spacing-section)]" aria-labelledby={titleId}>
      <p
        className={`text-eyebrow font-semibold tracking-[0.2em] uppercase ${kind === 'error' ? 'text-rose-300' : 'text-brand-300'}`}
      >
        {words.eyebrow}
      </p>
      <h1 id={titleId} className="mt-3 text-h1 font-bold tracking-tight">
        {words.title}
      </h1>
      <p className="mt-5 max-w-xl text-lead text-muted">{words.body}</p>
      {kind === 'not-found' ? (
        <>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2">
            {errorPages['not-found'].links.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="glass block p-5 transition hover:border-line-strong">
                  <span className="text-h3 font-semibold text-fg">{link.label}</span>
                  <span className="mt-1 block text-muted">{link.text}</span>
                </Link>
              </li>
            ))}
          </ul>
          <Link to="/" className={`mt-10 ${primary}`}>
            <Icon name="arrow-left" className="size-4" />
            {words.home}
          </Link>
        </>
      ) : (
        <div className="mt-10 flex flex-wrap gap-3">
          <button type="button" onClick={() => window.location.reload()} className={primary}>
            <Icon name="rotate-cw" className="size-4" />
            {errorPages.error.retry}
          </button>
          <Link to="/" className={secondary}>
            {words.home}
          </Link>
        </div>
      )}
    </section>
  )
}

export function NotFoundPage() {
  return <ErrorPage kind="not-found" />
}

export function RenderErrorPage() {
  return <ErrorPage kind="error" />
}
