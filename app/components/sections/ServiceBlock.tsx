import { Link } from '@tanstack/react-router'
import { Icon } from '~/components/Icon'
import { labels } from '~/content/labels'
import type { ServiceCard } from '~/content/types'
import { FeatureList } from './FeatureList'
import { IconTile } from './IconTile'
import { Picture } from './Picture'
import { slugify } from './Section'

/** One service: illustration and text side by side on wide screens (`reverse` alternates), stacked on small. */
export function ServiceBlock({
  service,
  reverse = false,
  priority = false,
}: {
  service: ServiceCard
  reverse?: boolean
  priority?: boolean
}) {
  const headingId = `${slugify(service.title)}-title`
  return (
    <article aria-labelledby={headingId} className="grid items-center gap-10 lg:grid-cols-2 lg:gap-16">
      <div className={`glass w-full max-w-xl p-3 sm:p-4 lg:max-w-none ${reverse ? 'lg:order-2' : ''}`}>
        <Picture image={service.image} priority={priority} className="rounded-xl" />
      </div>
      <div>
        <IconTile icon={service.icon} colour={service.colour} size="lg" />
        <h2 id={headingId} className="mt-5 text-h2 font-bold tracking-tight text-balance text-fg">
          {service.title}
        </h2>
        <p className="mt-4 text-lead text-muted">{service.description}</p>
        <FeatureList items={service.features} className="mt-6" />
        <Link
          to={service.path}
          className="group mt-8 inline-flex min-h-12 items-center gap-2 rounded-full border border-line-strong bg-white/5 px-6 font-semibold text-fg transition-colors hover:border-brand-400 hover:bg-white/10"
        >
          {labels.learnMore}
          <span className="sr-only">
            {' '}
            {labels.learnMoreAbout} {service.title}
          </span>
          <Icon name="arrow-right" className="size-5 transition-transform group-hover:translate-x-0.5" />
        </Link>
      </div>
    </article>
  )
}
