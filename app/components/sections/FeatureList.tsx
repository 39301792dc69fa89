import { Icon } from '~/components/Icon'
import type { FeatureItem } from '~/content/types'
import { Badge } from './Badge'

/** A list of features with check marks; Coming Soon and Enterprise items carry a visible badge. */
export function FeatureList({
  items,
  className = '',
}: {
  items: readonly (string | FeatureItem)[]
  className?: string
}) {
  return (
    <ul className={`space-y-3 ${className}`}>
      {items.map((entry) => {
        const item = typeof entry === 'string' ? { label: entry } : entry
        return (
          <li key={item.label} className="flex gap-3">
            <Icon name="check" className="mt-1 size-5 shrink-0 text-brand-300" strokeWidth={2.25} />
            <span className="text-fg/90">
              {item.label}
              {item.badge ? (
                <>
                  {' '}
                  <Badge tone={item.badge === 'Enterprise' ? 'violet' : 'amber'}>{item.badge}</Badge>
                </>
              ) : null}
            </span>
          </li>
        )
      })}
    </ul>
  )
}
