import { TEST_OPERATOR } from '../support/access-keys'
import { analyzeWcag } from '../support/axe'
import { enquiry, expect, test } from '../support/contact'
import { executeSql } from '../support/enquiries'
import { deliveredEnquiry, operator } from '../support/operator'
import { gotoHydrated } from '../support/page'
import { SITE_ORIGIN } from '../support/servers'
import { cutOffText, smallTargets } from '../support/wcag-layout'

// The desk's shell at a laptop's and a phone's width, axe and the keyboard; what the Worker answers
// (audit trail, requests by person) is tests/worker/desk.test.ts's.
test.describe.configure({ mode: 'default', timeout: 180_000 })

const origin = SITE_ORIGIN

/** `count` rows `<id>-0…` named `<name> 0…`, one a second from midnight of `day` (the last is newest). */
async function storeRows(rows: { id: string; name: string; count: number; day: string; status: string }) {
  const values = Array.from(
    { length: rows.count },
    (_, i) =>
      `('${rows.id}-${i}', '${rows.id}-${i}', '${rows.day}T00:00:${String(i).padStart(2, '0')}.000Z', '${rows.name} ${i}', '${rows.id}-${i}@example.com', 'Company', 'general', 'x', '${rows.status}')`,
  )
  await executeSql(
    origin,
    `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status) VALUES ${values.join(', ')}`,
  )
}

test('the desk’s shell: its own header with the sections and the operator, none of the brochure’s; dense at 1366 × 768, usable at 375 px', async ({
  browser,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  await storeRows({ id: `desk-${tag}`, name: `Dense ${tag}`, count: 26, day: '2026-01-02', status: 'handled' })

  // Each page loaded at a laptop's size, then turned to a phone's width (the desk's layout follows
  // the width alone: no script reads it).
  const laptop = { width: 1366, height: 768 }
  const { context, page } = await operator(browser, { viewport: laptop })
  const current: Record<string, string> = { '/admin/activity': 'Activity', '/admin/setup': 'Set-up' }
  for (const path of ['/admin', '/admin/activity', '/admin/person', '/admin/setup', `/admin/enquiries/desk-${tag}-0`]) {
    await page.setViewportSize(laptop)
    await gotoHydrated(page, `${origin}${path}`)
    const desk = page.getByRole('navigation', { name: 'Desk' })
    await expect(desk.getByRole('link')).toHaveText([
      'Enquiries',
      'Activity',
      'Requests by person',
      'Early access',
      'Set-up',
    ])
    await expect(page.getByTestId('desk-operator')).toHaveText(TEST_OPERATOR)
    await expect(page.getByRole('link', { name: 'Get Started' })).toHaveCount(0)
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
    await expect(page.getByRole('contentinfo')).toHaveCount(0)
    await expect(page.getByTestId('decorative-background')).toHaveCount(0)
    await expect(page.getByRole('main')).toHaveCount(1)
    const section = current[path]
    if (section)
      await expect(desk.getByRole('link', { name: section, exact: true })).toHaveAttribute('aria-current', 'page')

    // At 375 px: nothing wider than the screen, and the sections within reach.
    await page.setViewportSize({ width: 375, height: 740 })
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width, path).toBeLessThanOrEqual(375)
    for (const name of ['Enquiries', 'Activity', 'Requests by person', 'Early access', 'Set-up'])
      await expect(desk.getByRole('link', { name }), `${path} at 375 px`).toBeInViewport()
  }

  // 25 rows of the desk fit a laptop screen (768 px high, less the browser's own bar).
  await page.setViewportSize(laptop)
  await gotoHydrated(page, `${origin}/admin?q=Dense%20${tag}`)
  const list = page.locator('tbody tr')
  await expect(list).toHaveCount(25)
  const top = (await list.first().boundingBox())?.y ?? 0
  const last = await list.nth(24).boundingBox()
  const height = (last?.y ?? 0) + (last?.height ?? 0) - top
  console.log(`25 desk rows at 1366 × 768: ${Math.round(height)} px`)
  expect(height).toBeLessThanOrEqual(640)
  await context.close()
})

test('on a phone each row is a card (Early access’s too): nothing scrolls sideways, and an address wraps only at its @ or a dot', async ({
  browser,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  await storeRows({ id: `phone-${tag}`, name: `Phone ${tag}`, count: 3, day: '2026-01-04', status: 'failed' })
  // An address longer than a phone's line, which must wrap.
  const email = `phone-${tag}-0@example.com`
  const long = `someone.with.a.long-address-${tag}@accounts.subsidiary-company.example`
  await executeSql(origin, `UPDATE enquiries SET email = '${long}' WHERE id = 'phone-${tag}-1'`)
  const now = new Date().toISOString()
  await executeSql(
    origin,
    `INSERT INTO early_access (id, email, address_key, state, consent_version, signed_up_at, confirmed_at)
     VALUES ('ea-${tag}', 'early.${long}', 'early.${long}', 'confirmed', 'v1', '${now}', '${now}')`,
  )
  const { context, page } = await operator(browser, { viewport: { width: 375, height: 740 } })
  for (const path of [
    `/admin?q=Phone%20${tag}`,
    `/admin/person?email=${encodeURIComponent(email)}`,
    `/admin/person?email=${encodeURIComponent(long)}`,
    '/admin/activity',
    '/admin/early-access',
  ]) {
    await gotoHydrated(page, `${origin}${path}`)
    await expect(page.locator('main tbody tr').first()).toBeVisible()
    // Nothing past the screen's right edge, inside a scrolled box or not.
    const past = await page.evaluate(() =>
      [...document.querySelectorAll('main *')]
        .filter((element) => {
          const box = element.getBoundingClientRect()
          return box.width > 1 && box.right > window.innerWidth + 0.5
        })
        .map((element) => `${element.tagName.toLowerCase()} ${element.textContent?.slice(0, 30)}`),
    )
    expect(past, path).toEqual([])
    // Each card shows the enquiry's name first, then the rest with their column's name.
    if (path.startsWith('/admin?')) {
      const card = page.locator(`tr[data-enquiry="phone-${tag}-2"]`)
      await expect(card.getByRole('link', { name: `Phone ${tag} 2` })).toBeVisible()
      for (const shown of ['Subject', 'Status', 'Triage', 'Received'])
        await expect(card.locator(`td[data-label="${shown}"]`), shown).toBeVisible()
      await expect(card.locator('td[data-label="E-mail"]')).toBeHidden()
    }
    if (path === '/admin/early-access')
      await expect(page.locator(`tr[data-entry="ea-${tag}"]`)).toHaveCSS('display', 'flex')
    expect(await analyzeWcag(page), path).toEqual([])
    // WCAG 2.2's criteria that need the layout (tests/e2e/layout.spec.ts checks the visitor's pages):
    // targets big enough at 375 px, and reflow at 320 px with nothing cut off.
    expect.soft(await smallTargets(page), `${path}: 2.5.8 at 375 px`).toEqual([])
    await page.setViewportSize({ width: 320, height: 640 })
    expect.soft(await cutOffText(page), `${path}: 1.4.10 at 320 px`).toEqual({ overflow: 0, cut: [] })
    await page.setViewportSize({ width: 375, height: 740 })
  }

  // The long address, on the person's page: on more than one line, each line ending at an @ or a dot.
  await gotoHydrated(page, `${origin}/admin/person?email=${encodeURIComponent(long)}`)
  const ends = await page.locator('#person-title .desk-address').evaluate((element) => {
    const text = element.textContent ?? ''
    const range = document.createRange()
    const tops: number[] = []
    let offset = 0
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < (node.textContent ?? '').length; i++) {
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        tops[offset + i] = Math.round(range.getBoundingClientRect().top)
      }
      offset += (node.textContent ?? '').length
    }
    // The character before each new line.
    return tops.flatMap((top, i) => (i > 0 && top !== tops[i - 1] ? [text[i - 1]] : []))
  })
  expect(ends.length).toBeGreaterThan(0)
  for (const end of ends) expect(['@', '.']).toContain(end)
  await context.close()
})

test('enquiries first: at 1280 × 800 the desk’s first screen shows its first five enquiries, the set-up one line and a link away', async ({
  browser,
}, testInfo) => {
  const tag = crypto.randomUUID().slice(0, 8)
  await storeRows({ id: `first-${tag}`, name: `First ${tag}`, count: 12, day: '2026-01-03', status: 'delivered' })
  const { context, page } = await operator(browser, { viewport: { width: 1280, height: 800 } })
  await gotoHydrated(page, `${origin}/admin?q=First%20${tag}`)
  await expect(page.locator('tbody tr')).toHaveCount(12)
  const shot = testInfo.outputPath('desk-first-screen-1280x800.png')
  await page.screenshot({ path: shot })
  await testInfo.attach('desk-first-screen-1280x800', { path: shot, contentType: 'image/png' })
  // Rows wholly inside the first screen, without scrolling.
  const visible = await page.locator('tbody tr').evaluateAll(
    (trs) =>
      trs.filter((tr) => {
        const box = tr.getBoundingClientRect()
        return box.top >= 0 && box.bottom <= window.innerHeight
      }).length,
  )
  console.log(`desk rows visible at 1280 × 800: ${visible}`)
  expect(visible).toBeGreaterThanOrEqual(5)
  for (let i = 0; i < 5; i++)
    await expect(page.getByRole('link', { name: `First ${tag} ${11 - i}`, exact: true })).toBeInViewport({ ratio: 1 })
  await expect(page.getByRole('heading', { name: 'Delivery' })).toHaveCount(0)

  // The set-up is the header's Set-up; whatever is missing is named in one line that links there.
  await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Set-up' }).click()
  await expect(page).toHaveURL(`${origin}/admin/setup`)
  await expect(page.getByRole('heading', { level: 1, name: 'Set-up' })).toBeVisible()
  await expect(page.getByTestId('setup-delivery')).toHaveText('form-service')
  await context.close()
})

test('the desk’s new pages have no WCAG 2.2 A/AA violations and work from the keyboard alone', async ({
  browser,
  request,
}) => {
  const tag = crypto.randomUUID().slice(0, 8)
  const values = enquiry('desk-axe', { email: `axe-${tag}@example.com`, name: `Axe ${tag}` })
  await deliveredEnquiry(request, values)
  const { context, page } = await operator(browser)
  for (const path of [
    '/admin/activity',
    '/admin/person',
    `/admin/person?email=${encodeURIComponent(values.email)}`,
    '/admin/person?email=not-an-address',
    `/admin/person/erase?email=${encodeURIComponent(values.email)}`,
    '/admin/setup',
    '/admin/early-access',
  ]) {
    await gotoHydrated(page, `${origin}${path}`)
    expect(await analyzeWcag(page), path).toEqual([])
  }

  // Keyboard only: the skip link, then the desk's sections; a request by person from the search box to the erasure's confirmation.
  await gotoHydrated(page, `${origin}/admin`)
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Activity' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Requests by person' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Requests by person' })).toBeVisible()
  await page.getByLabel('E-mail address (exact)').focus()
  await page.keyboard.type(values.email)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 2, name: `1 enquiry from ${values.email}` })).toBeVisible()
  await page.getByRole('link', { name: 'Erase all…' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Erase everything held for ${values.email}?`)
  await page.getByRole('link', { name: 'Cancel' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 2, name: `1 enquiry from ${values.email}` })).toBeVisible()

  // The set-up from the header and back, by keyboard.
  await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Early access' }).focus()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Set-up', exact: true })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Set-up' })).toBeVisible()
  await expect(page.getByTestId('setup-delivery')).toHaveText('form-service')
  await page.getByRole('link', { name: 'All enquiries' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Enquiries' })).toBeVisible()
  await context.close()
})
