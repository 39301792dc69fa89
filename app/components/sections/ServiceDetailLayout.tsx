import { Link } from '@tanstack/react-router'
import { Icon } from '~/components/Icon'
import { labels } from '~/content/labels'
import { pageAt } from '~/content/pages'
import type { ServiceDetail } from '~/content/types'
import { CallToAction } from './CallToAction'
import { CardGrid } from './CardGrid'
import { ContactButton } from './ContactButton'
import { FeatureList } from './FeatureList'
import { PageHero } from './PageHero'
import { Picture } from './Picture'
import { Section } from './Section'

/** The one layout behind the four service pages; each route passes its data. */
export function ServiceDetailLayout({ detail }: { detail: ServiceDetail }) {
  const { service, approach, capabilities, cta } = detail
  return (
    <>
      <PageHero
        breadcrumb={
          <nav aria-label="Breadcrumb" className="mb-6">
            <ol className="flex flex-wrap items-center gap-1 text-sm text-subtle">
              <li>
                <Link to="/services" className="inline-flex min-h-11 items-center hover:text-fg">
                  {pageAt('/services').title}
                </Link>
              </li>
              <li aria-hidden="true">
                <Icon name="chevron-right" className="size-4" />
              </li>
              <li aria-current="page" className="text-muted">
                {service.title}
              </li>
            </ol>
          </nav>
        }
        title={service.title}
        lead={
          <>
            <p>{detail.lead}</p>
            <FeatureList items={service.features} className="mt-8 text-base" />
          </>
        }
        aside={
          <div className="glass w-full max-w-xl p-3 sm:p-4 lg:max-w-none">
            <Picture image={service.image} priority className="rounded-xl" />
          </div>
        }
      />

      <Section title={approach.title}>
        <div className="grid gap-10 lg:grid-cols-[1.4fr_1fr] lg:gap-16">
          <div className="space-y-5 text-lead text-muted">
            {approach.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
          <div className="glass h-fit p-6 sm:p-8">
            <p className="font-semibold text-fg">{labels.howWeWork}</p>
            <FeatureList items={approach.highlights} className="mt-5" />
          </div>
        </div>
      </Section>

      <Section title={capabilities.title} intro={capabilities.intro}>
        <CardGrid items={capabilities.cards} columns={3} />
      </Section>

      <CallToAction title={cta.title} text={cta.text}>
        <ContactButton subject={cta.subject}>{cta.label}</ContactButton>
      </CallToAction>
    </>
  )
}
