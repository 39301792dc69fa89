import { m } from 'framer-motion'
import type { ReactNode } from 'react'
import type { Accent } from '~/content/types'
import { ACCENTS } from './accent'

/**
 * A glass card that lifts slightly under the pointer. The motion is decoration only:
 * the card renders fully on the server and stays still under reduced motion.
 */
export function HoverCard({
  colour,
  className = '',
  children,
}: {
  colour?: Accent
  className?: string
  children: ReactNode
}) {
  return (
    <m.div
      whileHover={{ y: -4 }}
      transition={{ type: 'spring', stiffness: 320, damping: 26 }}
      className={`glass relative h-full overflow-hidden transition-colors hover:border-line-strong ${className}`}
    >
      {colour ? (
        <span
          aria-hidden="true"
          className={`absolute inset-x-8 top-0 h-px bg-linear-to-r from-transparent to-transparent ${ACCENTS[colour].glow}`}
        />
      ) : null}
      {children}
    </m.div>
  )
}
