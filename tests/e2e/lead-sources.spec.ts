import { randomBytes } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { type AccessKeys, accessKeysFrom } from '../support/access-keys'
import { enquiry, expect, fillForm, form, test } from '../support/contact'
import { expectStored } from '../support/enquiries'
import { gotoHydrated } from '../support/page'
import { ACCESS_KEY_FILE, SITE_ORIGIN, SITE_PORT } from '../support/servers'
import { stateDir } from '../support/site-server'

/**
 * Where a lead came from: a visit lands on a services page from a search engine with a campaign's
 * UTM values, moves on to /contact and sends the form, with JavaScript and without it. The
 * operator then sees the source on the enquiry's page and in the counts at /admin/sources.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 })

const WAIT_MS = 60_000
const persistTo = stateDir(SITE_PORT)
/** This run's campaign, so the counts are this file's own (other files share the inbox). */
const CAMPAIGN = `newsletter-${randomBytes(4).toString('hex')}`
const LANDING = `/services/devops?utm_source=${CAMPAIGN}&utm_medium=email&utm_campaign=winter-2026`
const SEARCH_ENGINE = 'https://www.google.com/search?q=devops+consultancy+hyderabad'

let keys: AccessKeys
test.beforeAll(async () => {
  keys = await accessKeysFrom(ACCESS_KEY_FILE)
})

/** The visitor goes from the services page to /contact by the page's own link. */
async function followContactLink(page: Page) {
  await Promise.all([
    page.waitForURL(/\/contact/),
    page.getByRole('main').locator('a[href^="/contact"]').first().click(),
  ])
}

async function sendForm(page: Page, values: ReturnType<typeof enquiry>) {
  await fillForm(page, values)
  await form(page).submit.click()
  await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
}

/** The enquiry's "Where it came from" as the operator sees it, field by field. */
async function sourceShown(browser: Browser, name: string): Promise<Record<string, string>> {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': await keys.sign({ expiresIn: 3600 }) },
  })
  const page = await context.newPage()
  await page.goto(`${SITE_ORIGIN}/admin?q=${encodeURIComponent(name)}`)
  await page.getByRole('link', { name, exact: true }).click()
  const section = page.getByRole('region', { name: 'Where it came from' })
  await expect(section).toBeVisible()
  const shown: Record<string, string> = {}
  for (const cell of await section.locator('[data-source]').all())
    shown[(await cell.getAttribute('data-source')) ?? ''] = (await cell.textContent()) ?? ''
  await context.close()
  return shown
}

test('with JavaScript: the tab keeps the first page, the search engine and the campaign, and sends them with the form', async ({
  page,
  browser,
}) => {
  const name = `Source Js ${randomBytes(3).toString('hex')}`
  const values = enquiry('source-js', { name })
  await page.goto(LANDING, { referer: SEARCH_ENGINE })
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await followContactLink(page)
  // The visitor reads another page before writing (a full page load).
  await gotoHydrated(page, '/about')
  await gotoHydrated(page, '/contact')
  await page.locator('#contact-form h2').click()
  await page.locator('#contact-form form[novalidate]').waitFor({ state: 'attached' })
  await sendForm(page, values)
  expect(await page.context().cookies()).toEqual([])

  const row = await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
  expect(row).toMatchObject({ name })
  expect(await sourceShown(browser, name)).toEqual({
    page: '/contact',
    firstPage: '/services/devops',
    referrerHost: 'www.google.com',
    utmSource: CAMPAIGN,
    utmMedium: 'email',
    utmCampaign: 'winter-2026',
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test("the contact page's Referer gives what it can: the page, and the campaign of the page before", async ({
    page,
    browser,
  }) => {
    const name = `Source NoJs ${randomBytes(3).toString('hex')}`
    const values = enquiry('source-nojs', { name })
    await page.goto(LANDING, { referer: SEARCH_ENGINE })
    await followContactLink(page)
    await sendForm(page, values)
    expect(await page.context().cookies()).toEqual([])

    await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
    // The services page was the first page, but a page cannot tell the next one without a script
    // or a cookie: the first page and the search engine are not known here.
    expect(await sourceShown(browser, name)).toEqual({
      page: '/contact',
      firstPage: 'not recorded',
      referrerHost: 'not recorded',
      utmSource: CAMPAIGN,
      utmMedium: 'email',
      utmCampaign: 'winter-2026',
    })
  })

  test('a visit that lands on /contact from another site is known in full', async ({ page, browser }) => {
    const name = `Source Landing ${randomBytes(3).toString('hex')}`
    const values = enquiry('source-landing', { name })
    await page.goto(`/contact?utm_source=${CAMPAIGN}&utm_medium=social`, {
      referer: 'https://www.linkedin.com/feed/update/urn:li:activity:123',
    })
    await sendForm(page, values)

    await expectStored(persistTo, values.email, 'delivered', undefined, WAIT_MS)
    expect(await sourceShown(browser, name)).toEqual({
      page: '/contact',
      firstPage: '/contact',
      referrerHost: 'www.linkedin.com',
      utmSource: CAMPAIGN,
      utmMedium: 'social',
      utmCampaign: 'not recorded',
    })
  })
})

test('the inbox counts enquiries by source and by first page, without JavaScript, axe-clean', async ({ browser }) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': await keys.sign({ expiresIn: 3600 }) },
  })
  const page = await context.newPage()
  await page.goto(`${SITE_ORIGIN}/admin`)
  await page.getByRole('link', { name: /Where enquiries came from/ }).click()
  await expect(page).toHaveURL(`${SITE_ORIGIN}/admin/sources`)
  for (const days of [30, 90]) {
    const section = page.getByTestId(`sources-${days}`)
    const bySource = section.getByRole('table', { name: 'By source' })
    await expect(bySource.getByRole('row', { name: `${CAMPAIGN} 3` })).toBeVisible()
    const byFirstPage = section.getByRole('table', { name: 'By first page' })
    await expect(byFirstPage.getByRole('row', { name: /^\/services\/devops \d+$/ })).toBeVisible()
  }
  await context.close()

  // axe runs in the page: a context with JavaScript, on the same page.
  const scripted = await browser.newContext({
    extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': await keys.sign({ expiresIn: 3600 }) },
  })
  const axePage = await scripted.newPage()
  await gotoHydrated(axePage, `${SITE_ORIGIN}/admin/sources`)
  const results = await new AxeBuilder({ page: axePage })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze()
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  await scripted.close()
})
