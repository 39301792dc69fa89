import { ICON_ID_PREFIX, type IconName } from '~/content/types'

export interface IconProps {
  name: IconName
  className?: string
  strokeWidth?: number
}

/**
 * The icon a name stands for: decorative (aria-hidden), drawn as lucide draws it (a 24×24 outline
 * in the text colour) from its symbol in the page (see app/document/page-symbols.server.ts for how the symbols get there).
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
      <use href={`#${ICON_ID_PREFIX}${name}`} />
    </svg>
  )
}
