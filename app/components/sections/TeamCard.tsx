import type { TeamMember } from '~/content/types'
import { HoverCard } from './HoverCard'

function initials(name: string): string {
  const parts = name.split(/\s+/).filter(Boolean)
  return `${parts[0]?.[0] ?? ''}${parts.at(-1)?.[0] ?? ''}`.toUpperCase()
}

/** A leadership card: monogram, name, role and bio. */
export function TeamCard({ member }: { member: TeamMember }) {
  return (
    <HoverCard colour="violet" className="p-6 sm:p-8">
      <span
        aria-hidden="true"
        className="inline-flex size-16 items-center justify-center rounded-2xl bg-linear-to-br from-brand-400/25 to-violet-500/30 text-xl font-bold text-fg ring-1 ring-line-strong ring-inset"
      >
        {initials(member.name)}
      </span>
      <h3 className="mt-6 text-h3 font-semibold text-fg">{member.name}</h3>
      <p className="mt-1 font-medium text-brand-300">{member.role}</p>
      <p className="mt-4 text-muted">{member.bio}</p>
    </HoverCard>
  )
}
