import { analyzeWcag } from '../support/axe'
import { gotoHydrated } from '../support/page'
import { PAGES } from '../support/routes'
import { expect, test } from '../support/shared-page'

const VIEWPORTS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const

test.describe('axe', () => {
  // Colours are the same with the background still; holding it still halves axe's run time.
  test.use({ reducedMotion: 'reduce' })

  // One load per page, checked at each width in turn (the layout follows the width, as when a
  // visitor turns a tablet or resizes the window).
  for (const { path } of [...PAGES, { path: '/no-such-page' }]) {
    test(`${path} has no WCAG 2.2 A/AA violations at ${VIEWPORTS.map((v) => `${v.width}px`).join(' or ')}`, async ({
      page,
    }) => {
      test.setTimeout(60_000)
      const [first] = VIEWPORTS
      await page.setViewportSize({ width: first.width, height: first.height })
      await gotoHydrated(page, path)
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize({ width: viewport.width, height: viewport.height })
        expect(await analyzeWcag(page), `at ${viewport.width}px (${viewport.name})`).toEqual([])
      }
    })
  }
})

test.describe('motion', () => {
  // With the preference for less, nothing moves: motion.spec.ts.
  test('without the preference, the background does move', async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: 'no-preference' })
    const page = await context.newPage()
    await gotoHydrated(page, '/')
    const running = await page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length)
    expect(running).toBeGreaterThanOrEqual(18)
    await context.close()
  })
})

test.describe('keyboard', () => {
  test('a desktop visitor reaches the skip link, the logo, every header link and Get Started in order', async ({
    page,
  }) => {
    await gotoHydrated(page, '/')
    const order: string[] = []
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab')
      order.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null
          return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim()
        }),
      )
    }
    expect(order).toEqual([
      'Skip to content',
      'Akshara Labs home',
      'Home',
      'Services',
      'Products',
      'About',
      'Contact',
      'Get Started',
    ])
  })

  test('on the contact page the keyboard reaches every form field and the submit button, in order, visibly', async ({
    page,
  }) => {
    await gotoHydrated(page, '/contact')
    await page.keyboard.press('Tab')
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.locator('main')).toBeFocused()
    const name = page.getByLabel('Full Name *')
    for (let i = 0; i < 20 && !(await name.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab')
    }
    await expect(name).toBeFocused()
    const expected = [
      page.getByLabel('Email Address *'),
      page.getByLabel('Company Name'),
      page.getByLabel('Subject *'),
      page.getByLabel('Message *'),
      page.getByRole('button', { name: 'Send Message' }),
    ]
    for (const control of expected) {
      await page.keyboard.press('Tab')
      await expect(control).toBeFocused()
      const outline = await control.evaluate((el) => getComputedStyle(el).outlineStyle)
      expect(outline).not.toBe('none')
    }
  })

  test('focus is always visible', async ({ page }) => {
    await gotoHydrated(page, '/')
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab')
      const outline = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement
        const style = getComputedStyle(el)
        return { width: Number.parseFloat(style.outlineWidth), style: style.outlineStyle }
      })
      expect(outline.style).not.toBe('none')
      expect(outline.width).toBeGreaterThanOrEqual(2)
    }
  })

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 740 } })

    test('the menu opens from the keyboard, its links are reachable in order, and Escape closes it', async ({
      page,
    }) => {
      await gotoHydrated(page, '/')
      const toggle = page.getByRole('button', { name: 'Open menu' })
      await toggle.focus()
      await page.keyboard.press('Enter')
      await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible()
      const labels: string[] = []
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab')
        labels.push(await page.evaluate(() => (document.activeElement?.textContent ?? '').trim()))
      }
      expect(labels).toEqual(['Home', 'Services', 'Products', 'About', 'Contact', 'Get Started'])
      await page.keyboard.press('Escape')
      await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden()
      await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused()
    })
  })
})
