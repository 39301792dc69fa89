import type { ReactNode } from 'react'
import { slugify } from './Section'

/** A closing panel: an h2, a sentence or two and one or more actions. */
export function CallToAction({ title, text, children }: { title: string; text: ReactNode; children: ReactNode }) {
  const headingId = `${slugify(title)}-title`
  return (
    <section aria-labelledby={headingId} className="container-page pt-section">
      <div className="glass relative overflow-hidden px-6 py-14 text-center sm:px-12 sm:py-16">
        <div aria-hidden="true" className="absolute -top-24 -left-16 size-72 rounded-full bg-brand-400/15 blur-3xl" />
        <div
          aria-hidden="true"
          className="absolute -right-16 -bottom-24 size-72 rounded-full bg-violet-500/20 blur-3xl"
        />
        <div className="relative mx-auto max-w-2xl">
          <h2 id={headingId} className="text-h2 font-bold tracking-tight text-balance text-fg">
            {title}
          </h2>
          <div className="mt-4 text-lead text-muted">{text}</div>
          <div className="mt-8 flex flex-wrap items-center justify-center gap-4">{children}</div>
        </div>
      </div>
    </section>
  )
}
