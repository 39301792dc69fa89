import type { InfoCard } from '~/content/types'
import { Badge } from './Badge'
import { HoverCard } from './HoverCard'
import { IconTile } from './IconTile'

const COLUMNS = {
  2: 'sm:grid-cols-2',
  3: 'md:grid-cols-2 lg:grid-cols-3',
  4: 'sm:grid-cols-2 xl:grid-cols-4',
} as const

/** Cards with an icon, an h3 title, a description and an optional badge. */
export function CardGrid({ items, columns = 3 }: { items: readonly InfoCard[]; columns?: keyof typeof COLUMNS }) {
  // Three cards in two columns would leave one alone: they stay in one column until all three fit.
  const layout = columns === 3 && items.length === 3 ? 'lg:grid-cols-3' : COLUMNS[columns]
  return (
    <ul className={`grid gap-5 sm:gap-6 ${layout}`}>
      {items.map((item) => (
        <li key={item.title}>
          <HoverCard colour={item.colour} className="p-6 sm:p-7">
            <div className="flex items-start justify-between gap-4">
              <IconTile icon={item.icon} colour={item.colour} />
              {item.badge ? <Badge tone={item.badge === 'Research' ? 'violet' : 'amber'}>{item.badge}</Badge> : null}
            </div>
            <h3 className="mt-5 text-h3 font-semibold text-fg">{item.title}</h3>
            <p className="mt-2 text-muted">{item.description}</p>
          </HoverCard>
        </li>
      ))}
    </ul>
  )
}
