/**
 * Animation is decoration: framer-motion (`m` through `LazyMotion`) is fetched on the first mouse
 * move, never in the first load; touch-only visitors never need it (hover effects), and under
 * prefers-reduced-motion it is never fetched.
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

  const stop = () => window.removeEventListener('pointermove', onInteraction)
  function onInteraction(event: PointerEvent) {
    if (event.pointerType !== 'mouse') return
    stop()
    void import('./MotionFrame').then(
      (module) => {
        loaded = module
        for (const listener of listeners) listener()
      },
      () => {
        // Decoration: a fetch that failed (the browser drops it when the visitor follows a link
        // to another page; a network blip) is tried again on a later mouse move, never reported.
        started = false
        loadMotionOnFirstInteraction()
      },
    )
  }
  window.addEventListener('pointermove', onInteraction, { passive: true })
}
