import { type ErrorKind, errorPages } from '~/content/error-pages'

/**
 * The 404 or error page in its plain form: the same words as the designed page (ErrorPage.tsx),
 * plain links, no router, no icons, no state. It is shown when the designed page's code cannot be
 * loaded (lazy-pages.tsx), and the server renders it to static HTML for the document it sends when
 * the layout itself fails (render-page.server.tsx). Keep it that simple.
 */
export function PlainErrorPage({ kind }: { kind: ErrorKind }) {
  const words = errorPages[kind]
  return (
    <section className="container-page py-[var(--spacing-section)]" aria-labelledby="plain-page-title">
      <p className="text-eyebrow font-semibold tracking-[0.2em] text-muted uppercase">{words.eyebrow}</p>
      <h1 id="plain-page-title" className="mt-3 text-h1 font-bold tracking-tight">
        {words.title}
      </h1>
      <p className="mt-5 max-w-xl text-lead text-muted">{words.body}</p>
      <ul className="mt-8 space-y-2">
        {words.links.map((link) => (
          <li key={link.to}>
            <a href={link.to} className="font-semibold text-brand-300 underline underline-offset-4">
              {link.label}
            </a>{' '}
            <span className="text-muted">{link.text}</span>
          </li>
        ))}
      </ul>
      <p className="mt-10">
        <a href="/" className="font-semibold text-brand-300 underline underline-offset-4">
          {words.home}
        </a>
      </p>
    </section>
  )
}
