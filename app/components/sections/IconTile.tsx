import { Icon } from '~/components/Icon'
import type { Accent, IconName } from '~/content/types'
import { ACCENTS } from './accent'

const SIZES = {
  md: { box: 'size-12 rounded-xl', icon: 'size-6' },
  lg: { box: 'size-14 rounded-2xl', icon: 'size-7' },
} as const

/** An icon in a tinted tile; decorative, so hidden from assistive technology. */
export function IconTile({ icon, colour, size = 'md' }: { icon: IconName; colour: Accent; size?: keyof typeof SIZES }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-flex shrink-0 items-center justify-center ring-1 ring-inset ${SIZES[size].box} ${ACCENTS[colour].tile}`}
    >
      <Icon name={icon} className={SIZES[size].icon} strokeWidth={1.75} />
    </span>
  )
}
