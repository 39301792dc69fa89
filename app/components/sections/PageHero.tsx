import type { ReactNode } from 'react'
import { eyebrowStyle } from './styles'

export const PAGE_TITLE_ID = 'page-title'

/** The top of a page: optional breadcrumb and eyebrow, the page's only h1, a lead, actions and an aside. */
export function PageHero({
  eyebrow,
  title,
  lead,
  breadcrumb,
  children,
  aside,
  centered = false,
}: {
  eyebrow?: ReactNode
  title: ReactNode
  lead?: ReactNode
  breadcrumb?: ReactNode
  /** Buttons and links under the enquiry. */
  children?: ReactNode
  /** Shown beside the text on wide screens, below it on small ones. */
  aside?: ReactNode
  centered?: boolean
}) {
  return (
    <section aria-labelledby={PAGE_TITLE_ID} className="container-page pt-12 sm:pt-20">
      <div className={aside ? 'grid items-center gap-12 lg:grid-cols-[1.1fr_1fr] lg:gap-16' : undefined}>
        <div className={centered ? 'mx-auto max-w-3xl text-center' : 'max-w-3xl'}>
          {breadcrumb}
          {eyebrow ? <p className={eyebrowStyle}>{eyebrow}</p> : null}
          <h1 id={PAGE_TITLE_ID} className="mt-4 text-h1 font-bold tracking-tight text-balance text-fg">
            {title}
          </h1>
          {lead ? <div className="mt-6 text-lead text-muted">{lead}</div> : null}
          {children ? (
            <div className={`mt-10 flex flex-wrap items-center gap-4 ${centered ? 'justify-center' : ''}`}>
              {children}
            </div>
          ) : null}
        </div>
        {aside ? <div className="min-w-0">{aside}</div> : null}
      </div>
    </section>
  )
}
