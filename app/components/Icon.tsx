import { ICON_ID_PREFIX, type IconName } from '~/content/types'

export interface IconProps {
  name: IconName
  className?: string
  strokeWidth?: number
}

/** A decorative icon (aria-hidden), drawn from its symbol in the page (app/document/page-symbols.server.ts). */
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
