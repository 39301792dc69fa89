// The reload after a chunk fails to load: only when the server says the chunk is gone, once, never
// while the visitor is leaving. On the built site: e2e/ops-reload; in Firefox and WebKit: engines/smoke.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { failedChunk, installPreloadRecovery, LEAVING_MS } from '~/document/preload-recovery'
import { routerReloadKey } from '~/lib/router-internals'

const ORIGIN = 'https://aksharalabs.example'
const MOTION = `${ORIGIN}/assets/MotionFrame-x.js`
const BUILD = `${ORIGIN}/assets/index-b.js`
const FIREFOX_MESSAGE = `error loading dynamically imported module: ${MOTION}`

/** `answer`: the server's status for the chunk, or 'offline' for no answer. */
function fakePage({ navigationApi = true, answer = 404 as number | 'offline' } = {}) {
  const target = new EventTarget()
  const reload = vi.fn()
  const storage = new Map<string, string>()
  const asked: string[] = []
  const navigation = navigationApi ? new EventTarget() : undefined
  const win = Object.assign(target, {
    location: { reload, origin: ORIGIN },
    navigation,
    fetch: async (url: string, init: RequestInit) => {
      asked.push(`${init.method} ${url}`)
      if (answer === 'offline') throw new TypeError('NetworkError when attempting to fetch resource.')
      return new Response(null, { status: answer })
    },
    sessionStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
    },
  }) as unknown as Window
  installPreloadRecovery(win, BUILD)
  return {
    window: target,
    navigation,
    reload,
    storage,
    asked,
    /** Fires `vite:preloadError` as Vite's loader does, then lets the page hear from the server. */
    chunkFails: async (message = FIREFOX_MESSAGE) => {
      const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), {
        payload: new TypeError(message),
      })
      target.dispatchEvent(event)
      // The failure always reaches the page's own handling (the motion code's retry, the error page).
      expect(event.defaultPrevented).toBe(false)
      for (let i = 0; i < 10; i++) await Promise.resolve()
    },
  }
}

/** The Navigation API's `navigate` event, as far as the handler reads it. */
function navigate(page: ReturnType<typeof fakePage>, sameDocument: boolean) {
  page.navigation?.dispatchEvent(Object.assign(new Event('navigate'), { destination: { sameDocument } }))
}

describe('the reload after a chunk fails to load', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-24T10:00:00Z'), toFake: ['Date'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('asks the server for the chunk; gone (404): reloads once, and not again within a minute', async () => {
    const page = fakePage()
    await page.chunkFails()
    expect(page.asked).toEqual([`HEAD ${MOTION}`])
    expect(page.reload).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(30_000)
    await page.chunkFails()
    expect(page.reload).toHaveBeenCalledTimes(1)
    expect(page.asked).toHaveLength(1)
  })

  it.each([
    [410, 'gone too', 1],
    [200, 'still there: its fetch was dropped (an address typed while it loaded) or failed', 0],
    ['offline', 'the server cannot be reached', 0],
  ] as const)('the chunk answered %s (%s): %i reloads', async (answer, _, reloads) => {
    const page = fakePage({ answer })
    await page.chunkFails()
    expect(page.asked).toEqual([`HEAD ${MOTION}`])
    expect(page.reload).toHaveBeenCalledTimes(reloads)
  })

  it("asks for this build's own chunk when the message names none (WebKit's) or names another site", async () => {
    const page = fakePage({ answer: 200 })
    await page.chunkFails('Importing a module script failed.')
    await page.chunkFails('Failed to fetch dynamically imported module: https://elsewhere.example/assets/a.js')
    expect(page.asked).toEqual([`HEAD ${BUILD}`, `HEAD ${BUILD}`])
  })

  it("holds the router's own reload-once for the same failure: one decision, here", async () => {
    const page = fakePage({ answer: 200 })
    await page.chunkFails()
    expect(page.storage.get(routerReloadKey(FIREFOX_MESSAGE))).toBe('1')
  })

  it.each([
    ['leaving for another document (a reload would cancel their navigation)', false, 3_000, 0],
    ['an in-site navigation (same document)', true, 0, 1],
    ['a navigation the browser dropped (a download), long past', false, LEAVING_MS + 1, 1],
  ])('after %s: %i reloads', async (_, sameDocument, later, reloads) => {
    const page = fakePage()
    navigate(page, sameDocument)
    vi.advanceTimersByTime(later)
    await page.chunkFails()
    expect(page.reload).toHaveBeenCalledTimes(reloads)
    expect(page.asked).toHaveLength(reloads)
  })

  it('without the Navigation API (WebKit), beforeunload tells that the visitor is leaving', async () => {
    const page = fakePage({ navigationApi: false })
    page.window.dispatchEvent(new Event('beforeunload'))
    await page.chunkFails()
    expect(page.reload).not.toHaveBeenCalled()
    vi.advanceTimersByTime(LEAVING_MS + 1)
    await page.chunkFails()
    expect(page.reload).toHaveBeenCalledTimes(1)
  })

  it('listens to beforeunload only where the Navigation API is missing (it costs Firefox its back-forward cache)', async () => {
    const page = fakePage()
    page.window.dispatchEvent(new Event('beforeunload'))
    await page.chunkFails()
    expect(page.reload).toHaveBeenCalledTimes(1)
  })
})

describe('the chunk a failure names', () => {
  it("reads Chromium's, Firefox's and Vite's CSS messages; none in WebKit's", () => {
    expect(failedChunk(`Failed to fetch dynamically imported module: ${MOTION}`, ORIGIN)).toBe(MOTION)
    expect(failedChunk(FIREFOX_MESSAGE, ORIGIN)).toBe(MOTION)
    expect(failedChunk(`Unable to preload CSS for ${ORIGIN}/assets/a.css`, ORIGIN)).toBe(`${ORIGIN}/assets/a.css`)
    expect(failedChunk('Importing a module script failed.', ORIGIN)).toBeUndefined()
  })
})
