import { Link } from '@tanstack/react-router'
import { ArrowLeft } from 'lucide-react'

const destinations = [
  { to: '/services', label: 'Services', text: 'DevOps, AI products, automation and web development.' },
  { to: '/products', label: 'Products', text: 'Our voice assistant for websites.' },
  { to: '/about', label: 'About', text: 'Who we are and how we work.' },
  { to: '/contact', label: 'Contact', text: 'Tell us what you are building.' },
] as const

export function NotFound() {
  return (
    <section className="container-page py-[var(--spacing-section)]" aria-labelledby="not-found-title">
      <p className="text-eyebrow font-semibold tracking-[0.2em] text-brand-300 uppercase">Error 404</p>
      <h1 id="not-found-title" className="mt-3 text-h1 font-bold tracking-tight">
        Page not found
      </h1>
      <p className="mt-5 max-w-xl text-lead text-muted">
        The page you were looking for does not exist or has moved. These are good places to continue:
      </p>
      <ul className="mt-10 grid gap-4 sm:grid-cols-2">
        {destinations.map((d) => (
          <li key={d.to}>
            <Link to={d.to} className="glass block p-5 transition hover:border-line-strong">
              <span className="text-h3 font-semibold text-fg">{d.label}</span>
              <span className="mt-1 block text-muted">{d.text}</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link
        to="/"
        className="mt-10 inline-flex min-h-11 items-center gap-2 rounded-full bg-brand-400 px-6 font-semibold text-on-brand hover:bg-brand-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to the home page
      </Link>
    </section>
  )
}
