// The motion code is fetched on the first mouse move; a fetch that fails (dropped when the visitor
// leaves) is tried again on a later move, and is never an uncaught error.
import { afterEach, expect, it, vi } from 'vitest'

let attempts = 0

vi.mock('~/components/motion/MotionFrame', () => {
  attempts++
  if (attempts === 1) throw new TypeError('error loading dynamically imported module')
  return { MotionFrame: () => null }
})

afterEach(() => {
  vi.resetModules()
})

const mouseMove = () => window.dispatchEvent(new PointerEvent('pointermove', { pointerType: 'mouse' }))

it('tries again on a later mouse move when the fetch failed, and loads it then', async () => {
  const unhandled = vi.fn()
  window.addEventListener('unhandledrejection', unhandled)
  const gate = await import('~/components/motion/motion-gate')
  const changed = vi.fn()
  gate.subscribeToMotion(changed)
  gate.loadMotionOnFirstInteraction()

  mouseMove()
  await vi.waitFor(() => expect(attempts).toBe(1))
  await new Promise((done) => setTimeout(done, 20))
  expect(gate.getMotion()).toBeNull()
  expect(changed).not.toHaveBeenCalled()

  mouseMove()
  await vi.waitFor(() => expect(gate.getMotion()).not.toBeNull())
  expect(attempts).toBe(2)
  expect(changed).toHaveBeenCalledTimes(1)
  expect(unhandled).not.toHaveBeenCalled()
  window.removeEventListener('unhandledrejection', unhandled)
})
