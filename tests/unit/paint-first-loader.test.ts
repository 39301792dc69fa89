import { describe, expect, it } from 'vitest'
import { entryLoader } from '~/document/paint-first'

type Listener = () => void

/** Runs the inline loader every page ends with in a stand-in page the test paints, hides and shows. */
function loadPage({ visibility = 'visible', paintTiming = true } = {}) {
  const listeners = new Set<Listener>()
  let frames: Listener[] = []
  let onPaint: ((list: { getEntriesByName(name: string): unknown[] }) => void) | undefined
  const added: string[] = []
  const doc = {
    currentScript: { nonce: 'n0nce' },
    visibilityState: visibility,
    createElement: (tag: string) => ({ tag }) as Record<string, string>,
    head: { appendChild: (link: Record<string, string>) => added.push(`${link.rel} ${link.href} ${link.nonce}`) },
    body: {
      appendChild: (script: Record<string, string>) => added.push(`${script.type} ${script.src} ${script.nonce}`),
    },
    addEventListener: (type: string, listener: Listener) => type === 'visibilitychange' && listeners.add(listener),
    removeEventListener: (type: string, listener: Listener) =>
      type === 'visibilitychange' && listeners.delete(listener),
  }
  class Observer {
    static supportedEntryTypes = paintTiming ? ['paint'] : []
    constructor(callback: typeof onPaint) {
      onPaint = callback
    }
    observe() {}
    disconnect() {
      onPaint = undefined
    }
  }
  const requestAnimationFrame = (frame: Listener) => frames.push(frame)
  new Function('document', 'window', 'requestAnimationFrame', entryLoader(['/assets/index.js'], ['/assets/about.js']))(
    doc,
    { PerformanceObserver: Observer },
    requestAnimationFrame,
  )
  const setVisibility = (state: 'visible' | 'hidden') => {
    doc.visibilityState = state
    for (const listener of [...listeners]) listener()
  }
  return {
    added,
    listeners,
    paint: () => onPaint?.({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []) }),
    frame: () => {
      const due = frames
      frames = []
      for (const frame of due) frame()
    },
    hide: () => setVisibility('hidden'),
    show: () => setVisibility('visible'),
  }
}

const STARTED = ['modulepreload /assets/about.js n0nce', 'module /assets/index.js n0nce']

describe("the page's code starts after its first paint", () => {
  it('at the first contentful paint: the route preloads, then the entry, with the nonce, once', () => {
    const page = loadPage()
    page.frame()
    page.frame()
    expect(page.added, 'nothing before the paint is reported').toEqual([])
    page.paint()
    expect(page.added).toEqual(STARTED)
    page.hide()
    page.show()
    page.frame()
    page.frame()
    expect(page.added, 'started once').toEqual(STARTED)
    expect(page.listeners.size, 'the visibility listener is gone once the code has started').toBe(0)
  })

  type Step = 'frame' | 'show' | 'hide'
  it.each<[string, Parameters<typeof loadPage>[0], Step[], Step[]]>([
    [
      'without paint timing, after two frames: the second runs once the first is painted',
      { paintTiming: false },
      ['frame'],
      ['frame'],
    ],
    [
      'in a tab opened in the background, once the tab is shown',
      { visibility: 'hidden' },
      ['frame'],
      ['show', 'frame', 'frame'],
    ],
    [
      'in a tab left before it painted, whose paint is never reported, once it is shown again',
      {},
      ['hide', 'frame', 'frame'],
      ['show', 'frame', 'frame'],
    ],
  ])('%s', (_, options, before, after) => {
    const page = loadPage(options)
    for (const step of before) page[step]()
    expect(page.added).toEqual([])
    for (const step of after) page[step]()
    expect(page.added).toEqual(STARTED)
  })
})
