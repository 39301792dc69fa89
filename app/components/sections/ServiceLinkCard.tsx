import { Link } from '@tanstack/react-router'
import { Icon } from '~/components/Icon'
import type { ServiceCard } from '~/content/types'
import { ACCENTS } from './accent'
import { HoverCard } from './HoverCard'
import { IconTile } from './IconTile'

/** A service summary card; the whole card is one link to the service's page. */
export function ServiceLinkCard({ service }: { service: ServiceCard }) {
  return (
    <HoverCard colour={service.colour} className="flex flex-col p-6 focus-within:border-brand-400 sm:p-8">
      <IconTile icon={service.icon} colour={service.colour} size="lg" />
      <h3 className="mt-6 text-h3 font-semibold text-fg">
        <Link to={service.path} className="after:absolute after:inset-0 after:rounded-[inherit]">
          {service.title}
        </Link>
      </h3>
      <p className="mt-3 flex-1 text-muted">{service.summary}</p>
      <span
        aria-hidden="true"
        className={`mt-6 inline-flex items-center gap-2 font-semibold ${ACCENTS[service.colour].text}`}
      >
        Learn more
        <Icon name="arrow-right" className="size-4" />
      </span>
    </HoverCard>
  )
}
