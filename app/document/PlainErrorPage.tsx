import { type ErrorKind, errorPages } from '~/content/error-pages'

/** The error page's words with no router, icons or state, for when the designed page cannot load or render. */
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
