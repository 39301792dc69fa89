import type { IconName } from '~/content/types'
import spriteUrl from './icons.svg?url&no-inline'

export interface IconProps {
  name: IconName
  className?: string
  strokeWidth?: number
}

/**
 * The icon a name in content stands for: decorative (aria-hidden), drawn as lucide draws it (a
 * 24×24 outline in the text colour) from one sprite file, components/icons.svg (`npm run icons`
 * writes it from lucide's data). The file is a hashed asset, cached for good after its first fetch;
 * no icon's drawing is in any script.
 */
export function Icon({ name, className, strokeWidth = 2 }: IconProps) {
  return (
    <svg
      aria-hidden="true"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={`lucide lucide-${name}${className ? ` ${className}` : ''}`}
    >
      <use href={`${spriteUrl}#${name}`} />
    </svg>
  )
}
