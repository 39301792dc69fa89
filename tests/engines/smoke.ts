/**
 * The smoke checks every engine runs, against the site that `npm start` serves at the README's own
 * plain-http address. Each engine's file (firefox.test.ts, webkit.test.ts) supplies a window driven
 * its own way (`EnginePage`); the checks are the same, in this order, in one window:
 *
 *   styled → hydrated → in-site navigation → mobile menu → a plain link followed while code is
 *   still on its way → contact form with JavaScript → contact form without JavaScript (a second
 *   window whose scripts never run) → the desk
 *
 * The desk check finds the two enquiries the form checks sent. It opens the desk as docs/desk.md
 * says: the token `npm run admin-token` printed goes with every request as the
 * `Cf-Access-Jwt-Assertion` header. Both engines open the desk through a stand-in for Cloudflare
 * Access (tests/support/front-proxy.ts), which adds it to every request, as Access does in front of
 * the real site (WebKit's WebDriver has no way to add a header; puppeteer's header injection in
 * Firefox intercepts every request of the tab).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { startFrontProxy } from '../support/front-proxy'
import type { EnginesSite } from './ports'

/** A browser window, driven as a visitor drives it. */
export interface EnginePage {
  /** Loads an address, as typed in the address bar, and waits for its load event. */
  open(url: string): Promise<void>
  /** Runs a self-contained function in the page (a promise it returns is awaited); JSON in and out. */
  run<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>>
  /** Scrolls the element into view and clicks it with the pointer. */
  click(selector: string): Promise<void>
  /** Scrolls the element into view and moves the pointer over it. */
  hover(selector: string): Promise<void>
  /** Clicks into a field and types, key by key. */
  type(selector: string, text: string): Promise<void>
  /** Chooses an option of a `<select>`. */
  select(selector: string, value: string): Promise<void>
  /** Sizes the window so that its viewport is about this wide and high. */
  resize(width: number, height: number): Promise<void>
}

export interface Engine {
  /** The window with JavaScript on, used by every check but the no-JavaScript one. */
  page: EnginePage
  /** Whether the engine's Resource Timing entries carry `responseStatus` (WebKit's do not). */
  reportsResponseStatus: boolean
  /** A second window whose page scripts never run; closed by the caller. */
  withoutJavaScript(): Promise<EnginePage & { close(): Promise<void> }>
  /** The main window, made to send the operator's token, and the address to open the desk on. */
  operator(): Promise<{ page: EnginePage; origin: string }>
  close(): Promise<void>
}

/**
 * What the window shows, for a failed `open`: its address and load state, how its document came
 * (`navigate` or `reload`), and whether the page's chunk recovery (app/document/preload-recovery.ts)
 * reloaded it (`RELOADED_AT_KEY`, passed in). Runs in the page: self-contained.
 */
export function windowState(reloadedAtKey: string): string {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
  let recovery: string | null = null
  try {
    recovery = sessionStorage.getItem(reloadedAtKey)
  } catch {}
  return [
    `${location.href} ${document.readyState}`,
    `its document came by ${entry?.type ?? 'no navigation entry'}, ${Math.round(performance.now())} ms ago`,
    recovery
      ? `the chunk recovery reloaded a page ${Date.now() - Number(recovery)} ms ago`
      : 'no chunk-recovery reload',
  ].join('; ')
}

export const DESKTOP = { width: 1280, height: 900 }
/** Below Tailwind's `lg` (1024 px): the header shows the menu toggle instead of its links. */
const NARROW = { width: 420, height: 800 }

/** Polls `fn` in the page until it returns something truthy; errors while a page loads are retried. */
export async function until<A extends unknown[], R>(
  page: EnginePage,
  what: string,
  fn: (...args: A) => R,
  args: A,
  timeout = 20_000,
): Promise<Awaited<R>> {
  const deadline = Date.now() + timeout
  let last: unknown
  for (;;) {
    try {
      const value = await page.run(fn, ...args)
      if (value) return value
      last = value
    } catch (error) {
      last = error instanceof Error ? error.message.split('\n')[0] : error
    }
    if (Date.now() > deadline) {
      const where = await page
        .run(
          () =>
            `${location.href}, h1 "${document.querySelector('h1')?.textContent ?? ''}", loaded by ${(performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type}, scripts ${
              (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
                .filter((entry) => entry.name.endsWith('.js'))
                .map(
                  (entry) =>
                    `${entry.name.split('/').pop()} ${Math.round(entry.startTime)}–${Math.round(entry.responseEnd)} ms`,
                )
                .join(', ') || 'none'
            }`,
        )
        .catch(() => 'unknown')
      throw new Error(`Timed out after ${timeout} ms waiting until ${what} (last: ${last}; the page: ${where})`)
    }
    await new Promise((done) => setTimeout(done, 150))
  }
}

export const hydrated = (page: EnginePage) =>
  until(page, 'React has hydrated the page', () => document.documentElement.dataset.hydrated === 'true', [], 30_000)

/** What the stand-in form service received from one address. */
async function received(site: EnginesSite, email: string): Promise<{ json: unknown }[]> {
  const answer = await fetch(`${site.formService}/__requests?email=${encodeURIComponent(email)}`)
  return (await answer.json()) as { json: unknown }[]
}

async function deliveredOnce(site: EnginesSite, email: string): Promise<unknown> {
  const deadline = Date.now() + 30_000
  while ((await received(site, email)).length === 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 250))
  }
  const requests = await received(site, email)
  expect(requests, `what the form service received from ${email}`).toHaveLength(1)
  return requests[0]?.json
}

interface Enquiry {
  name: string
  email: string
  company: string
  subject: string
  message: string
}

async function fillContactForm(page: EnginePage, values: Enquiry) {
  await page.type('#contact-form input[name="name"]', values.name)
  await page.type('#contact-form input[name="email"]', values.email)
  await page.type('#contact-form input[name="company"]', values.company)
  await page.select('#contact-form select[name="subject"]', values.subject)
  await page.type('#contact-form textarea[name="message"]', values.message)
}

const contactFields = (page: EnginePage) =>
  page.run(() =>
    ['name', 'email', 'company', 'subject', 'message'].map(
      (name) => (document.querySelector(`#contact-form [name="${name}"]`) as HTMLInputElement | null)?.value ?? null,
    ),
  )

/** Marks the current document, to tell a client-side navigation (mark kept) from a page load (mark gone). */
const markDocument = (page: EnginePage) =>
  page.run(() => {
    ;(window as unknown as { engineSmoke?: string }).engineSmoke = 'this document'
  })
const documentMark = (page: EnginePage) =>
  page.run(() => (window as unknown as { engineSmoke?: string }).engineSmoke ?? null)

/**
 * Registers the smoke checks for one engine; `launch` opens its window (and its driver). `more`
 * registers checks of this engine's own after them, in the same describe block.
 */
export function engineSmoke(
  name: string,
  launch: (site: EnginesSite) => Promise<Engine>,
  more?: (site: EnginesSite) => void,
) {
  describe(`${name}, at the README's address served by npm start`, () => {
    const site = inject('enginesSite')
    // Never all digits and one "e": the router would read `?q=31e55737` as a number.
    const tag = `t${randomBytes(4).toString('hex')}`
    const withScript: Enquiry = {
      name: `${name} Visitor ${tag}`,
      email: `${name.toLowerCase()}-js-${tag}@example.com`,
      company: 'Godavari Agro Exports',
      subject: 'devops',
      message: `We need CI/CD for 40 services.\nSent from ${name} with JavaScript.`,
    }
    const withoutScript: Enquiry = {
      name: `${name} Reader ${tag}`,
      email: `${name.toLowerCase()}-nojs-${tag}@example.com`,
      company: '',
      subject: 'website',
      message: `A site for our shop.\nSent from ${name} without JavaScript.`,
    }
    let engine: Engine
    let page: EnginePage

    beforeAll(async () => {
      engine = await launch(site)
      page = engine.page
    }, 60_000)

    afterAll(async () => {
      await engine?.close()
    })

    it('is styled: its stylesheet loads from the same http address and applies', async () => {
      await page.resize(DESKTOP.width, DESKTOP.height)
      await page.open(`${site.origin}/`)
      const sheets = await page.run(() =>
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
        expect(sheet.href.startsWith(`${site.origin}/assets/`), sheet.href).toBe(true)
        expect(sheet.requested, `${sheet.href} was requested`).toBe(true)
        expect(sheet.rules, `${sheet.href} loaded and parsed (its rules: ${sheet.rules})`).toSatisfy(
          (rules) => typeof rules === 'number' && rules > 100,
        )
        expect(sheet.status, `${sheet.href}'s status`).toBe(engine.reportsResponseStatus ? 200 : null)
      }
      // Styles only the stylesheet gives: the site's font, a sticky header, a logo sized by a class.
      const styles = await page.run(() => {
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
      await hydrated(page)
    })

    it('follows a header link without reloading the page', async () => {
      await hydrated(page)
      const before = await page.run(() => document.querySelector('h1')?.textContent ?? '')
      await markDocument(page)
      await page.click('nav[aria-label="Main"] a[href="/services"]')
      await until(
        page,
        'the Services page shows',
        (heading: string) =>
          location.pathname === '/services' &&
          (document.querySelector('h1')?.textContent ?? heading) !== heading &&
          document.querySelector('nav[aria-label="Main"] a[aria-current="page"]')?.textContent === 'Services',
        [before],
      )
      expect(await documentMark(page), 'the same document (a client-side navigation)').toBe('this document')
    })

    it('opens the mobile menu in a narrow window, shows its links, and choosing one closes it', async () => {
      await page.resize(NARROW.width, NARROW.height)
      await page.open(`${site.origin}/`)
      await hydrated(page)
      const menu = () =>
        page.run(() => {
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

      await markDocument(page)
      await page.click('header button[popovertarget]')
      await until(
        page,
        'the menu is open',
        () => document.querySelector('[data-site-menu]')?.matches(':popover-open'),
        [],
      )
      const open = await menu()
      expect(open.expanded).toBe('true')
      expect(open.links).toEqual(expect.arrayContaining(['Home', 'Services', 'Products', 'About', 'Contact']))

      await page.click('[data-site-menu] a[href="/about"]')
      await until(
        page,
        'the About page shows and the menu has closed',
        () => location.pathname === '/about' && !document.querySelector('[data-site-menu]')?.matches(':popover-open'),
        [],
      )
      expect(await menu()).toMatchObject({ open: false, expanded: 'false', links: [] })
      expect(await documentMark(page), 'the same document (a client-side navigation)').toBe('this document')
      await page.resize(DESKTOP.width, DESKTOP.height)
    })

    it('follows a plain link clicked while the page still fetches code, and does not reload over it', async () => {
      // On a slow network: the motion code, fetched on the first mouse move (motion-gate.ts), comes
      // 3 s after it is asked for, and the next page 6 s after. The visitor points at the footer's
      // Documentation link (a plain link: a new document) and clicks it while that code is on its
      // way. The browser drops the fetch for the page it is leaving, and the page must not answer
      // that failure with a reload, which would cancel the visitor's navigation.
      const motionCode = /^\/assets\/MotionFrame-[\w-]+\.js$/
      const slow = await startFrontProxy(0, site.origin, {
        slow: [
          { path: motionCode, ms: 3_000 },
          { path: /^\/coming-soon$/, ms: 6_000 },
        ],
      })
      try {
        await page.resize(DESKTOP.width, DESKTOP.height)
        await page.open(`${slow.origin}/`)
        await hydrated(page)
        await page.hover('footer a[href="/coming-soon"]')
        const deadline = Date.now() + 20_000
        while (!slow.held().some((path) => motionCode.test(path))) {
          if (Date.now() > deadline)
            throw new Error(`The pointer moved; the motion code was not asked for (${slow.held()}).`)
          await new Promise((done) => setTimeout(done, 50))
        }
        await page.click('footer a[href="/coming-soon"]')
        await until(
          page,
          'the Documentation link has been followed',
          () => location.pathname === '/coming-soon' && document.readyState === 'complete',
          [],
          30_000,
        )
        expect(
          await page.run(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type),
        ).toBe('navigate')
      } finally {
        // Off the proxy before it closes: a page whose server went away may reload over the next test.
        await page.open('about:blank')
        await slow.close()
      }
    })

    it('sends the contact form with JavaScript: the success message, every field cleared, delivered once', async () => {
      await page.open(`${site.origin}/contact`)
      await hydrated(page)
      // The form's code comes on first use (DeferredContactForm): a press on it, as a visitor does.
      await page.click('#contact-form h2')
      await until(
        page,
        'the form is enhanced',
        () => document.querySelector('#contact-form form[novalidate]') !== null,
        [],
      )
      await markDocument(page)
      await fillContactForm(page, withScript)
      await page.click('#contact-form button[type="submit"]')

      await until(
        page,
        'the success message shows',
        (message: string) => document.getElementById('contact-status')?.textContent?.includes(message),
        [SUCCESS_MESSAGE],
      )
      expect(await contactFields(page)).toEqual(['', '', '', '', ''])
      expect(await documentMark(page), 'sent by the page, without a page load').toBe('this document')
      expect(await deliveredOnce(site, withScript.email)).toEqual({ ...withScript, access_key: site.formKey })
    })

    it('sends the contact form without JavaScript: a native post, its 303, then the success message', async () => {
      const plain = await engine.withoutJavaScript()
      try {
        await plain.resize(DESKTOP.width, DESKTOP.height)
        await plain.open(`${site.origin}/contact`)
        // The page's scripts did not run: the server's plain form, which the browser validates itself.
        expect(
          await plain.run(() => ({
            hydrated: document.documentElement.dataset.hydrated ?? null,
            enhanced: document.querySelector('#contact-form form')?.hasAttribute('novalidate') ?? null,
            action: document.querySelector('#contact-form form')?.getAttribute('action') ?? null,
          })),
        ).toEqual({ hydrated: null, enhanced: false, action: '/api/contact' })
        await fillContactForm(plain, withoutScript)
        await plain.click('#contact-form button[type="submit"]')

        await until(
          plain,
          'the page the post redirected to shows the success message',
          (message: string) =>
            location.pathname === '/contact' &&
            location.hash === '#contact-status' &&
            document.getElementById('contact-status')?.textContent?.includes(message),
          [SUCCESS_MESSAGE],
        )
        const arrival = await plain.run(() => {
          const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
          return { type: entry.type, redirects: entry.redirectCount }
        })
        // The POST answered 303, which the browser followed to /contact.
        expect(arrival).toEqual({ type: 'navigate', redirects: 1 })
        expect(await contactFields(plain)).toEqual(['', '', '', '', ''])
        expect(await plain.run(() => document.documentElement.dataset.hydrated ?? null)).toBeNull()
        expect(await deliveredOnce(site, withoutScript.email)).toEqual({ ...withoutScript, access_key: site.formKey })
      } finally {
        await plain.close()
      }
    })

    it('opens the desk as documented: refused without the token; with it, lists the enquiries sent above and marks one handled', async () => {
      await page.open(`${site.origin}/admin`)
      expect(await page.run(() => document.querySelector('h1')?.textContent)).toBe('Not allowed')

      const operator = await engine.operator()
      const desk = operator.page
      await desk.open(`${operator.origin}/admin?q=${tag}`)
      await hydrated(desk)
      const list = await desk.run(() => ({
        heading: document.querySelector('h1')?.textContent,
        names: [...document.querySelectorAll('tbody tr td:nth-child(2)')].map((cell) => cell.textContent),
      }))
      // Newest first.
      expect(list).toEqual({ heading: 'Enquiries', names: [withoutScript.name, withScript.name] })

      const href = await desk.run(
        (wanted: string) =>
          [...document.querySelectorAll<HTMLAnchorElement>('tbody a')]
            .find((link) => link.textContent === wanted)
            ?.getAttribute('href') ?? '',
        withScript.name,
      )
      await desk.click(`tbody a[href="${href}"]`)
      await until(desk, 'the enquiry opens', (wanted: string) => document.querySelector('h1')?.textContent === wanted, [
        withScript.name,
      ])
      await hydrated(desk)
      expect(await desk.run(() => document.querySelector('[data-testid="message"]')?.textContent)).toBe(
        withScript.message,
      )
      await desk.click('form[action="/admin/actions"]:has(input[name="action"][value="handled"]) button')
      await until(
        desk,
        'the desk confirms',
        () => document.querySelector('[role="status"]')?.textContent?.includes('Marked handled'),
        [],
      )
      expect(await desk.run(() => document.body.textContent?.includes('by operator@aksharalabs.in'))).toBe(true)
    })

    more?.(site)
  })
}
