import { afterEach, describe, expect, it, vi } from 'vitest'
import { fetchLater } from '~/document/fetch-later'

describe('fetchLater: a file the next pages use, fetched once the page is idle', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('waits for an idle period (two seconds at most), then fetches at low priority', async () => {
    const idle: { callback: () => void; options?: { timeout?: number } }[] = []
    vi.stubGlobal('requestIdleCallback', (callback: () => void, options?: { timeout?: number }) => {
      idle.push({ callback, options })
      return idle.length
    })
    const fetched = vi.fn(async (_url: string, _init?: RequestInit) => new Response('file'))
    vi.stubGlobal('fetch', fetched)

    const file = fetchLater('/assets/file.woff2')
    await Promise.resolve()
    expect(fetched).not.toHaveBeenCalled()
    expect(idle).toHaveLength(1)
    expect(idle[0]?.options).toEqual({ timeout: 2000 })

    idle[0]?.callback()
    expect(await (await file).text()).toBe('file')
    expect(fetched).toHaveBeenCalledWith('/assets/file.woff2', { priority: 'low' })
  })

  it('fetches at once in a browser without requestIdleCallback, and rejects an answer that is not a success', async () => {
    vi.stubGlobal('requestIdleCallback', undefined)
    const fetched = vi.fn(async () => new Response('gone', { status: 404 }))
    vi.stubGlobal('fetch', fetched)
    await expect(fetchLater('/assets/old.svg')).rejects.toThrow('/assets/old.svg: 404')
    expect(fetched).toHaveBeenCalledTimes(1)
  })
})
