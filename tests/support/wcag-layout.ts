import type { Page } from '@playwright/test'

// WCAG 2.2 AA criteria axe cannot check, measured on the page as it is now: each returns what a visitor meets.

/** WCAG 1.4.12's overrides, as a reader's own style sheet sets them. */
export const TEXT_SPACING = `*, *::before, *::after {
  line-height: 1.5 !important;
  letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important;
}
p { margin-bottom: 2em !important; }`

/** Applies TEXT_SPACING through DevTools, outside the page's CSP, as a reader's style sheet would. */
export async function applyTextSpacing(page: Page): Promise<{ fontSize: number; letterSpacing: number }> {
  const cdp = await page.context().newCDPSession(page)
  try {
    await cdp.send('DOM.enable')
    await cdp.send('CSS.enable')
    const { frameTree } = await cdp.send('Page.getFrameTree')
    const { styleSheetId } = await cdp.send('CSS.createStyleSheet', { frameId: frameTree.frame.id })
    await cdp.send('CSS.setStyleSheetText', { styleSheetId, text: TEXT_SPACING })
  } finally {
    await cdp.detach()
  }
  return page.evaluate(() => {
    const style = getComputedStyle(document.querySelector('main p') ?? document.body)
    return { fontSize: Number.parseFloat(style.fontSize), letterSpacing: Number.parseFloat(style.letterSpacing) }
  })
}

/** 1.4.10 and 1.4.12: how far the page is wider than the window, and text cut off by a box or the window's edge. */
export function cutOffText(page: Page): Promise<{ overflow: number; cut: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const clips = new Map<Element, DOMRect | null>()
    /** The box `element` shows its content in when it hides its overflow, else null. */
    const clipOf = (element: Element): DOMRect | null => {
      if (!clips.has(element)) {
        const style = getComputedStyle(element)
        const hides = [style.overflowX, style.overflowY].some((value) => value === 'hidden' || value === 'clip')
        const box = element.getBoundingClientRect()
        clips.set(
          element,
          hides
            ? new DOMRect(
                box.left + element.clientLeft,
                box.top + element.clientTop,
                element.clientWidth,
                element.clientHeight,
              )
            : null,
        )
      }
      return clips.get(element) ?? null
    }
    const cut: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    const range = document.createRange()
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim()
      const parent = node.parentElement
      if (!text || !parent?.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue
      range.selectNodeContents(node)
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0)
      if (rects.length === 0) continue
      const where: string[] = []
      let onPurpose = false
      for (
        let element: Element | null = parent;
        element && element !== document.documentElement;
        element = element.parentElement
      ) {
        const clip = clipOf(element)
        if (!clip) continue
        onPurpose ||= clip.width <= 1 && clip.height <= 1
        const outside = rects.some(
          (rect) =>
            rect.left < clip.left - 1 ||
            rect.right > clip.right + 1 ||
            rect.top < clip.top - 1 ||
            rect.bottom > clip.bottom + 1,
        )
        if (outside) where.push(`cut off by <${element.localName} class="${element.getAttribute('class') ?? ''}">`)
      }
      if (onPurpose) continue
      if (rects.some((rect) => rect.left < -1 || rect.right > width + 1)) where.push('past the edge of the window')
      if (where.length) cut.push(`"${text.slice(0, 40)}" ${where.join(', ')}`)
    }
    return { overflow: document.documentElement.scrollWidth - width, cut }
  })
}

/** 2.5.8: targets under 24 × 24 px, unless clear of others by the spacing exception, or inline in a sentence. */
export function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const SIZE = 24
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [tabindex]:not([tabindex="-1"])'
    const name = (element: Element) =>
      (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40) ||
      `<${element.localName}>`
    const targets = [...document.querySelectorAll(selector)]
      .filter(
        (element) =>
          !element.matches(':disabled') &&
          element.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
          getComputedStyle(element).pointerEvents !== 'none',
      )
      .map((element) => {
        const box = element.getBoundingClientRect()
        return {
          element,
          box: new DOMRect(box.left + window.scrollX, box.top + window.scrollY, box.width, box.height),
        }
      })
      // Off the page until focused (the skip link): not a target for a pointer.
      .filter(({ box }) => box.bottom > 0 && box.right > 0 && box.width > 0 && box.height > 0)
    const small = (box: DOMRect) => box.width < SIZE - 0.01 || box.height < SIZE - 0.01
    const inSentence = (element: Element) => {
      if (getComputedStyle(element).display !== 'inline') return false
      let block = element.parentElement
      while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement
      return (block?.textContent?.trim().length ?? 0) > (element.textContent?.trim().length ?? 0)
    }
    const centre = (box: DOMRect) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 })
    const distanceToBox = (point: { x: number; y: number }, box: DOMRect) =>
      Math.hypot(
        Math.max(box.left - point.x, 0, point.x - box.right),
        Math.max(box.top - point.y, 0, point.y - box.bottom),
      )
    const problems: string[] = []
    for (const target of targets) {
      if (!small(target.box) || inSentence(target.element)) continue
      const here = centre(target.box)
      const crowded = targets.filter((other) => {
        if (other === target || other.element.contains(target.element) || target.element.contains(other.element))
          return false
        if (!small(other.box)) return distanceToBox(here, other.box) < SIZE / 2
        const there = centre(other.box)
        return Math.hypot(here.x - there.x, here.y - there.y) < SIZE
      })
      if (crowded.length)
        problems.push(
          `"${name(target.element)}" is ${Math.round(target.box.width)} × ${Math.round(target.box.height)} px, too near "${name(crowded[0]?.element as Element)}"`,
        )
    }
    return problems
  })
}

/**
 * 2.4.11 Focus not obscured: the focused element and its ring under nothing that stays put on the
 * screen (the sticky header); null once focus has left the page or come round again.
 */
export function focusedUnderABar(page: Page): Promise<{ focused: string; inFooter: boolean; under: string[] } | null> {
  return page.evaluate(() => {
    const focused = document.activeElement
    if (!focused || focused === document.body || focused === document.documentElement) return null
    // Back at an element already met: the tab order has come round.
    const memory = window as { __tabbed?: WeakSet<Element> }
    memory.__tabbed ??= new WeakSet()
    const seen = memory.__tabbed
    if (seen.has(focused)) return null
    seen.add(focused)
    const layer = (element: Element) => {
      // The z-index of the outermost positioned ancestor that sets one: what it paints over.
      let z = 0
      for (let at: Element | null = element; at; at = at.parentElement) {
        const style = getComputedStyle(at)
        if (style.position !== 'static' && style.zIndex !== 'auto') z = Number(style.zIndex)
      }
      return z
    }
    const ring = (() => {
      const style = getComputedStyle(focused)
      const grow =
        style.outlineStyle === 'none'
          ? 0
          : Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset)
      const box = focused.getBoundingClientRect()
      return new DOMRect(box.x - grow, box.y - grow, box.width + 2 * grow, box.height + 2 * grow)
    })()
    const bars = [...document.body.querySelectorAll('*')].filter((element) => {
      const position = getComputedStyle(element).position
      return (position === 'sticky' || position === 'fixed') && element.checkVisibility({ visibilityProperty: true })
    })
    const under = bars
      .filter((bar) => !bar.contains(focused) && !focused.contains(bar) && layer(bar) > layer(focused))
      .filter((bar) => {
        const box = bar.getBoundingClientRect()
        return box.left < ring.right && ring.left < box.right && box.top < ring.bottom && ring.top < box.bottom
      })
      .map((bar) => {
        const box = bar.getBoundingClientRect()
        return `<${bar.localName}> from ${Math.round(box.top)} to ${Math.round(box.bottom)} px`
      })
    const label = (focused.getAttribute('aria-label') ?? focused.textContent ?? '').trim().replace(/\s+/g, ' ')
    return {
      focused: `<${focused.localName}> "${label.slice(0, 40)}" at ${Math.round(ring.top)}–${Math.round(ring.bottom)} px`,
      inFooter: focused.closest('body > footer') !== null,
      under,
    }
  })
}

/**
 * Follows every in-page link (`href="#…"`) that shows, in turn, and returns each whose target lands
 * under a bar that stays on the screen (the sticky header) instead of below it.
 */
export function inPageLinksLandingUnderABar(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    const header = document.querySelector('body > header')
    const problems: string[] = []
    const links = [...document.querySelectorAll<HTMLAnchorElement>('a[href^="#"]')].filter(
      (link) => link.hash.length > 1 && link.checkVisibility({ visibilityProperty: true }),
    )
    for (const link of links) {
      const target = document.getElementById(decodeURIComponent(link.hash.slice(1)))
      if (!target || !header) continue
      link.click()
      await frame()
      const top = target.getBoundingClientRect().top
      const bottom = header.getBoundingClientRect().bottom
      if (top < bottom - 0.5)
        problems.push(`${link.hash} lands at ${Math.round(top)} px, under the header (to ${bottom} px)`)
    }
    return problems
  })
}
