/**
 * Animation is decoration, so none of its code is part of a page's first load. The first time
 * the visitor moves a mouse or scrolls, the motion module (framer-motion's `m` through
 * `LazyMotion`) is fetched; components that animate then switch to it. Under
 * prefers-reduced-motion it is never fetched, and nothing moves.
 */
type MotionModule = typeof import('./MotionFrame')

let loaded: MotionModule | null = null
let started = false
const listeners = new Set<() => void>()

export function subscribeToMotion(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const getMotion = (): MotionModule | null => loaded
export const getServerMotion = (): MotionModule | null => null

export function loadMotionOnFirstInteraction(): void {
  if (started || typeof window === 'undefined') return
  started = true
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return

  const events = ['pointermove', 'scroll', 'touchmove'] as const
  const stop = () => {
    for (const type of events) window.removeEventListener(type, onInteraction)
  }
  function onInteraction(event: Event) {
    // A touch's own pointer events must not swap elements under the finger; scrolling may.
    if (event instanceof PointerEvent && event.pointerType !== 'mouse') return
    stop()
    void import('./MotionFrame').then((module) => {
      loaded = module
      for (const listener of listeners) listener()
    })
  }
  for (const type of events) window.addEventListener(type, onInteraction, { passive: true })
}
