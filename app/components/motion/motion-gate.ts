/** Decoration: framer-motion comes on the first mouse move, never on touch or under reduced motion. */
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
        // Decoration: a failed fetch (often a visitor leaving) is tried again on a later move, never reported.
        started = false
        loadMotionOnFirstInteraction()
      },
    )
  }
  window.addEventListener('pointermove', onInteraction, { passive: true })
}
