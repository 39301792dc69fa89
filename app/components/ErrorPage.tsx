import { type ErrorComponentProps, Link, useRouter } from '@tanstack/react-router'
import { RotateCw } from 'lucide-react'
import { errorCopy } from './error-copy'

/** Shown when a page fails to render. Never shows the error's details to visitors. */
export function ErrorPage({ reset }: ErrorComponentProps) {
  const router = useRouter()
  return (
    <section className="container-page py-[var(--spacing-section)]" aria-labelledby="error-title">
      <p className="text-eyebrow font-semibold tracking-[0.2em] text-rose-300 uppercase">{errorCopy.eyebrow}</p>
      <h1 id="error-title" className="mt-3 text-h1 font-bold tracking-tight">
        {errorCopy.title}
      </h1>
      <p className="mt-5 max-w-xl text-lead text-muted">{errorCopy.body}</p>
      <div className="mt-10 flex flex-wrap gap-3">
        <button
          type="button"
          onClick={() => {
            reset()
            void router.invalidate()
          }}
          className="inline-flex min-h-11 items-center gap-2 rounded-full bg-brand-400 px-6 font-semibold text-on-brand hover:bg-brand-300"
        >
          <RotateCw aria-hidden="true" className="size-4" />
          Try again
        </button>
        <Link
          to="/"
          className="inline-flex min-h-11 items-center rounded-full border border-line-strong px-6 font-semibold text-fg"
        >
          {errorCopy.home}
        </Link>
      </div>
    </section>
  )
}
