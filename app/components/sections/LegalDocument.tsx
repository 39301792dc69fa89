import type { ReactNode } from 'react'
import { labels } from '~/content/labels'
import type { LegalPage } from '~/content/legal'
import { longDate } from '~/content/long-date'
import { site } from '~/site'
import { PageHero } from './PageHero'
import { slugify } from './Section'

/** Text with the company's e-mail address turned into a mail link. */
function withEmailLinks(text: string): ReactNode {
  const parts = text.split(site.email)
  return parts.flatMap((part, index) =>
    index === 0
      ? [part]
      : [
          <a
            key={part + String(index)}
            href={`mailto:${site.email}`}
            className="font-medium text-brand-300 underline underline-offset-4 hover:text-brand-400"
          >
            {site.email}
          </a>,
          part,
        ],
  )
}

/** A legal page: title, last-updated date, intro, a table of contents on wide screens and sections of prose. */
export function LegalDocument({ page }: { page: LegalPage }) {
  const sections = page.sections.map((section) => ({ ...section, id: slugify(section.title) }))
  return (
    <>
      <PageHero
        title={page.title}
        lead={
          <>
            <p className="text-base text-subtle">
              {labels.lastUpdated} <time dateTime={page.updated}>{longDate(page.updated)}</time>
            </p>
            <p className="mt-4">{page.intro}</p>
          </>
        }
      />
      <div className="container-page mt-12 grid gap-10 lg:grid-cols-[minmax(0,48rem)_1fr]">
        <div className="glass space-y-10 p-6 sm:p-10">
          {sections.map((section) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
              <h2 id={`${section.id}-title`} className="text-h3 font-semibold text-fg">
                {section.title}
              </h2>
              <div className="mt-3 space-y-3 text-muted">
                {section.paragraphs.map((paragraph) => (
                  <p key={paragraph}>{withEmailLinks(paragraph)}</p>
                ))}
                {section.list ? (
                  <ul className="list-disc space-y-1 pl-6 marker:text-brand-300">
                    {section.list.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                  </ul>
                ) : null}
              </div>
            </section>
          ))}
        </div>
        <nav aria-label={labels.onThisPage} className="hidden lg:block">
          <div className="sticky top-24">
            <p className="text-sm font-semibold tracking-wide text-fg uppercase">{labels.onThisPage}</p>
            <ul className="mt-4 space-y-1 border-l border-line">
              {sections.map((section) => (
                <li key={section.id}>
                  <a
                    href={`#${section.id}`}
                    className="-ml-px block border-l border-transparent py-1.5 pl-4 text-muted transition-colors hover:border-brand-400 hover:text-fg"
                  >
                    {section.title}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </nav>
      </div>
    </>
  )
}
