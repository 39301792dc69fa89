/**
 * The reload after a chunk fails to load (app/document/preload-recovery.ts): once, never in a loop, and
 * never while the visitor is leaving the page. The reload itself on the built site:
 * tests/e2e/ops-reload.spec.ts; a link followed while a chunk is on its way, in Firefox and WebKit:
 * tests/engines/smoke.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { installPreloadRecovery, LEAVING_MS } from '~/document/preload-recovery'

interface FakePage {
  window: EventTarget
  /** The Navigation API's object, when the browser has it. */
  navigation: EventTarget | undefined
  reload: ReturnType<typeof vi.fn>
  /** Fires `vite:preloadError` as Vite's loader does; true when the handler took it (preventDefault). */
  chunkFails(): boolean
}

function fakePage({ navigationApi = true } = {}): FakePage {
  const target = new EventTarget()
  const reload = vi.fn()
  const storage = new Map<string, string>()
  const navigation = navigationApi ? new EventTarget() : undefined
  const win = Object.assign(target, {
    location: { reload },
    navigation,
    sessionStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
    },
  }) as unknown as Window
  installPreloadRecovery(win)
  return {
    window: target,
    navigation,
    reload,
    chunkFails: () => {
      const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), {
        payload: new TypeError('error loading dynamically imported module: http://localhost/assets/MotionFrame-x.js'),
      })
      target.dispatchEvent(event)
      return event.defaultPrevented
    },
  }
}

/** The Navigation API's `navigate` event, as far as the handler reads it. */
function navigate(page: FakePage, sameDocument: boolean) {
  page.navigation?.dispatchEvent(Object.assign(new Event('navigate'), { destination: { sameDocument } }))
}

describe('the reload after a chunk fails to load', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-24T10:00:00Z') })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('reloads once, and not again within a minute', () => {
    const page = fakePage()
    expect(page.chunkFails()).toBe(true)
    expect(page.reload).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(30_000)
    expect(page.chunkFails()).toBe(false)
    expect(page.reload).toHaveBeenCalledTimes(1)
  })

  it('does not reload while the visitor is leaving for another document: that would cancel their navigation', () => {
    const page = fakePage()
    navigate(page, false)
    vi.advanceTimersByTime(3_000)
    expect(page.chunkFails()).toBe(false)
    expect(page.reload).not.toHaveBeenCalled()
  })

  it('still reloads after an in-site navigation (same document)', () => {
    const page = fakePage()
    navigate(page, true)
    expect(page.chunkFails()).toBe(true)
    expect(page.reload).toHaveBeenCalledTimes(1)
  })

  it('reloads again once a navigation the browser dropped (a download) is long past', () => {
    const page = fakePage()
    navigate(page, false)
    vi.advanceTimersByTime(LEAVING_MS + 1)
    expect(page.chunkFails()).toBe(true)
    expect(page.reload).toHaveBeenCalledTimes(1)
  })

  it('without the Navigation API (WebKit), beforeunload tells that the visitor is leaving', () => {
    const page = fakePage({ navigationApi: false })
    page.window.dispatchEvent(new Event('beforeunload'))
    expect(page.chunkFails()).toBe(false)
    expect(page.reload).not.toHaveBeenCalled()
    vi.advanceTimersByTime(LEAVING_MS + 1)
    expect(page.chunkFails()).toBe(true)
    expect(page.reload).toHaveBeenCalledTimes(1)
  })

  it('listens to beforeunload only where the Navigation API is missing (it costs Firefox its back-forward cache)', () => {
    const page = fakePage()
    page.window.dispatchEvent(new Event('beforeunload'))
    expect(page.chunkFails()).toBe(true)
    expect(page.reload).toHaveBeenCalledTimes(1)
  })
})
