import type { ReactNode } from 'react'
import { slugify } from '~/content/slugify'
import { eyebrowStyle } from './styles'

export { slugify }

/** A page section with an h2 heading; it is a landmark region named by that heading. */
export function Section({
  id,
  eyebrow,
  title,
  intro,
  children,
  centered = false,
}: {
  /** Anchor target; the heading's id derives from it or from the title. */
  id?: string
  eyebrow?: string
  title: string
  intro?: ReactNode
  children: ReactNode
  centered?: boolean
}) {
  const headingId = `${id ?? slugify(title)}-title`
  return (
    <section id={id} aria-labelledby={headingId} className="container-page pt-section">
      <div className={`reveal ${centered ? 'mx-auto max-w-3xl text-center' : 'max-w-3xl'}`}>
        {eyebrow ? <p className={eyebrowStyle}>{eyebrow}</p> : null}
        <h2 id={headingId} className="mt-3 text-h2 font-bold tracking-tight text-balance text-fg">
          {title}
        </h2>
        {intro ? <div className="mt-4 text-lead text-muted">{intro}</div> : null}
      </div>
      <div className="reveal mt-12">{children}</div>
    </section>
  )
}
