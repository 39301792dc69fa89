import type { LegalPage } from '~/content/legal'
import { PageHero } from './PageHero'
import { slugify } from './Section'

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

/** A legal page: title, last-updated date, intro and numbered sections of prose. */
export function LegalDocument({ page }: { page: LegalPage }) {
  return (
    <>
      <PageHero
        title={page.title}
        lead={
          <>
            <p className="text-base text-subtle">
              Last updated <time dateTime={page.updated}>{dateFormat.format(new Date(page.updated))}</time>
            </p>
            <p className="mt-4">{page.intro}</p>
          </>
        }
      />
      <div className="container-page mt-12">
        <div className="glass max-w-3xl space-y-10 p-6 sm:p-10">
          {page.sections.map((section) => {
            const headingId = `${slugify(section.title)}-title`
            return (
              <section key={section.title} aria-labelledby={headingId}>
                <h2 id={headingId} className="text-h3 font-semibold text-fg">
                  {section.title}
                </h2>
                <div className="mt-3 space-y-3 text-muted">
                  {section.paragraphs.map((paragraph) => (
                    <p key={paragraph}>{paragraph}</p>
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
            )
          })}
        </div>
      </div>
    </>
  )
}
