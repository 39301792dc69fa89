/** The smoke checks of the site's pages: styled, hydrated, in-site navigation, the mobile menu, a plain link followed while code is on its way. */
import { expect, it } from 'vitest'
import { startFrontProxy } from '../support/front-proxy'
import { DESKTOP, documentMark, hydrated, markDocument, NARROW, type SmokeContext, until } from './smoke'

export function pageChecks(s: SmokeContext) {
  it('is styled: its stylesheet loads from the same http address and applies', async () => {
    await s.page.resize(DESKTOP.width, DESKTOP.height)
    await s.page.open(`${s.site.origin}/`)
    const sheets = await s.page.run(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => {
        const timing = performance.getEntriesByName(link.href)[0] as
          | (PerformanceResourceTiming & { responseStatus?: number })
          | undefined
        let rules: number | string | null = null // no stylesheet object at all: the request failed
        try {
          if (link.sheet) rules = link.sheet.cssRules.length
        } catch {
          rules = 'unreadable: fetched from another origin' // e.g. upgraded to https
        }
        return {
          href: link.href,
          rules,
          requested: timing !== undefined,
          status: timing?.responseStatus ?? null,
        }
      }),
    )
    expect(sheets.length).toBeGreaterThan(0)
    for (const sheet of sheets) {
      expect(sheet.href.startsWith(`${s.site.origin}/assets/`), sheet.href).toBe(true)
      expect(sheet.requested, `${sheet.href} was requested`).toBe(true)
      expect(sheet.rules, `${sheet.href} loaded and parsed (its rules: ${sheet.rules})`).toSatisfy(
        (rules) => typeof rules === 'number' && rules > 100,
      )
      expect(sheet.status, `${sheet.href}'s status`).toBe(s.engine.reportsResponseStatus ? 200 : null)
    }
    // Styles only the stylesheet gives: the site's font, a sticky header, a logo sized by a class.
    const styles = await s.page.run(() => {
      const header = document.querySelector('header') as HTMLElement
      const logo = header.querySelector('a[href="/"]') as HTMLElement
      return {
        font: getComputedStyle(document.body).fontFamily,
        header: getComputedStyle(header).position,
        logoHeight: Math.round(logo.getBoundingClientRect().height),
        mainNav: getComputedStyle(document.querySelector('nav[aria-label="Main"]') as HTMLElement).display,
      }
    })
    expect(styles.font).toMatch(/Inter/)
    expect(styles.header).toBe('sticky')
    expect(styles.logoHeight).toBeLessThan(80)
    expect(styles.mainNav).toBe('block')
  })

  it('hydrates', async () => {
    await hydrated(s.page)
  })

  it('follows a header link without reloading the page', async () => {
    await hydrated(s.page)
    const before = await s.page.run(() => document.querySelector('h1')?.textContent ?? '')
    await markDocument(s.page)
    await s.page.click('nav[aria-label="Main"] a[href="/services"]')
    await until(
      s.page,
      'the Services page shows',
      (heading: string) =>
        location.pathname === '/services' &&
        (document.querySelector('h1')?.textContent ?? heading) !== heading &&
        document.querySelector('nav[aria-label="Main"] a[aria-current="page"]')?.textContent === 'Services',
      [before],
    )
    expect(await documentMark(s.page), 'the same document (a client-side navigation)').toBe('this document')
  })

  it('opens the mobile menu in a narrow window, shows its links, and choosing one closes it', async () => {
    await s.page.resize(NARROW.width, NARROW.height)
    await s.page.open(`${s.site.origin}/`)
    await hydrated(s.page)
    const menu = () =>
      s.page.run(() => {
        const toggle = document.querySelector('header button[popovertarget]') as HTMLButtonElement
        const panel = document.getElementById(toggle.getAttribute('popovertarget') ?? '') as HTMLElement
        const shown = (el: Element) => {
          const box = el.getBoundingClientRect()
          return (
            el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true }) &&
            box.width > 0 &&
            box.height > 0
          )
        }
        return {
          width: window.innerWidth,
          toggleShown: shown(toggle),
          mainNavShown: shown(document.querySelector('nav[aria-label="Main"]') as HTMLElement),
          open: panel.matches(':popover-open'),
          expanded: toggle.getAttribute('aria-expanded'),
          links: [...panel.querySelectorAll('nav a')].filter(shown).map((a) => a.textContent),
        }
      })
    const closed = await menu()
    expect(closed.width).toBeLessThan(1024)
    expect(closed).toMatchObject({
      toggleShown: true,
      mainNavShown: false,
      open: false,
      expanded: 'false',
      links: [],
    })

    await markDocument(s.page)
    await s.page.click('header button[popovertarget]')
    await until(
      s.page,
      'the menu is open',
      () => document.querySelector('[data-site-menu]')?.matches(':popover-open'),
      [],
    )
    const open = await menu()
    expect(open.expanded).toBe('true')
    expect(open.links).toEqual(expect.arrayContaining(['Home', 'Services', 'Products', 'About', 'Contact']))

    await s.page.click('[data-site-menu] a[href="/about"]')
    await until(
      s.page,
      'the About page shows and the menu has closed',
      () => location.pathname === '/about' && !document.querySelector('[data-site-menu]')?.matches(':popover-open'),
      [],
    )
    expect(await menu()).toMatchObject({ open: false, expanded: 'false', links: [] })
    expect(await documentMark(s.page), 'the same document (a client-side navigation)').toBe('this document')
    await s.page.resize(DESKTOP.width, DESKTOP.height)
  })

  it('follows a plain link clicked while the page still fetches code, and does not reload over it', async () => {
    // On a slow network: the motion code, fetched on the first mouse move (motion-gate.ts), comes
    // 3 s after it is asked for, and the next page 6 s after. The visitor points at the footer's
    // Documentation link (a plain link: a new document) and clicks it while that code is on its
    // way. The browser drops the fetch for the page it is leaving, and the page must not answer
    // that failure with a reload, which would cancel the visitor's navigation.
    const motionCode = /^\/assets\/MotionFrame-[\w-]+\.js$/
    const slow = await startFrontProxy(0, s.site.origin, {
      slow: [
        { path: motionCode, ms: 3_000 },
        { path: /^\/coming-soon$/, ms: 6_000 },
      ],
    })
    try {
      await s.page.resize(DESKTOP.width, DESKTOP.height)
      await s.page.open(`${slow.origin}/`)
      await hydrated(s.page)
      await s.page.hover('footer a[href="/coming-soon"]')
      const deadline = Date.now() + 20_000
      while (!slow.held().some((path) => motionCode.test(path))) {
        if (Date.now() > deadline)
          throw new Error(`The pointer moved; the motion code was not asked for (${slow.held()}).`)
        await new Promise((done) => setTimeout(done, 50))
      }
      await s.page.click('footer a[href="/coming-soon"]')
      await until(
        s.page,
        'the Documentation link has been followed',
        () => location.pathname === '/coming-soon' && document.readyState === 'complete',
        [],
        30_000,
      )
      expect(
        await s.page.run(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type),
      ).toBe('navigate')
    } finally {
      // Off the proxy before it closes: a page whose server went away may reload over the next test.
      await s.page.open('about:blank')
      await slow.close()
    }
  })
}
