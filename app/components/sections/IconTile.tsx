import type { LucideIcon } from 'lucide-react'
import type { Accent } from '~/content/types'
import { ACCENTS } from './accent'

const SIZES = {
  md: { box: 'size-12 rounded-xl', icon: 'size-6' },
  lg: { box: 'size-14 rounded-2xl', icon: 'size-7' },
} as const

/** A lucide icon in a tinted tile; decorative, so hidden from assistive technology. */
export function IconTile({
  icon: Icon,
  colour,
  size = 'md',
}: {
  icon: LucideIcon
  colour: Accent
  size?: keyof typeof SIZES
}) {
  return (
    <span
      aria-hidden="true"
      className={`inline-flex shrink-0 items-center justify-center ring-1 ring-inset ${SIZES[size].box} ${ACCENTS[colour].tile}`}
    >
      <Icon className={SIZES[size].icon} strokeWidth={1.75} />
    </span>
  )
}
