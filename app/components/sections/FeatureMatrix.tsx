import type { FeatureGroup } from '~/content/types'
import { FeatureList } from './FeatureList'
import { slugify } from './Section'

/** The product's feature groups side by side, each a region named by its category. */
export function FeatureMatrix({ groups }: { groups: readonly FeatureGroup[] }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {groups.map((group, index) => {
        const headingId = `${slugify(group.category)}-title`
        return (
          <section
            key={group.category}
            aria-labelledby={headingId}
            className={`glass relative overflow-hidden p-6 sm:p-8 ${index > 0 ? 'border-violet-400/30' : ''}`}
          >
            <h3 id={headingId} className="text-h3 font-semibold text-fg">
              {group.category}
            </h3>
            <p className="mt-1 text-muted">{group.description}</p>
            <FeatureList items={group.items} className="mt-6" />
          </section>
        )
      })}
    </div>
  )
}
