import { type ReactNode, useEffect, useState, useSyncExternalStore } from 'react'
import { getMotion, getServerMotion, subscribeToMotion } from '~/components/motion/motion-gate'
import type { Accent } from '~/content/types'
import { ACCENTS } from './accent'

/** Animated once motion has loaded, never while focus or the pointer is inside: the swap would lose them. */
export function HoverCard({
  colour,
  className = '',
  children,
}: {
  colour?: Accent
  className?: string
  children: ReactNode
}) {
  const motion = useSyncExternalStore(subscribeToMotion, getMotion, getServerMotion)
  const [focusWithin, setFocusWithin] = useState(false)
  const [pointerInside, setPointerInside] = useState(false)
  const [animated, setAnimated] = useState(false)
  useEffect(() => {
    if (motion && !focusWithin && !pointerInside) setAnimated(true)
  }, [motion, focusWithin, pointerInside])

  const classes = `glass relative h-full overflow-hidden transition-colors hover:border-line-strong ${className}`
  const content = (
    <>
      {colour ? (
        <span
          aria-hidden="true"
          className={`absolute inset-x-8 top-0 h-px bg-linear-to-r from-transparent to-transparent ${ACCENTS[colour].glow}`}
        />
      ) : null}
      {children}
    </>
  )
  if (animated && motion) return <motion.LiftOnHover className={classes}>{content}</motion.LiftOnHover>
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: focus and pointer events are only observed, to time the swap
    <div
      className={classes}
      onFocus={() => setFocusWithin(true)}
      onBlur={() => setFocusWithin(false)}
      onPointerEnter={() => setPointerInside(true)}
      onPointerMove={() => setPointerInside(true)}
      onPointerLeave={() => setPointerInside(false)}
    >
      {content}
    </div>
  )
}
