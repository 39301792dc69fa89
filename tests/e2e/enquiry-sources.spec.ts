import { randomBytes } from 'node:crypto'
import type { Browser, Page } from '@playwright/test'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { enquiry, expect, fillForm, form, test } from '../support/contact'
import { expectStored } from '../support/enquiries'
import { operator } from '../support/operator'
import { gotoHydrated, waitForHydration } from '../support/page'
import { SITE_ORIGIN, SITE_PORT } from '../support/servers'
import { stateDir } from '../support/site-server'

// Where an enquiry came from, with JavaScript: the tab keeps the first page, the search engine and the
// campaign, and the operator sees them; without JavaScript: tests/worker/enquiry-sources.test.ts.
test.describe.configure({ timeout: 120_000 })

const WAIT_MS = 60_000
const persistTo = stateDir(SITE_PORT)
/** This run's campaign. */
const CAMPAIGN = `newsletter-${randomBytes(4).toString('hex')}`
const LANDING = `/services/devops?utm_source=${CAMPAIGN}&utm_medium=email&utm_campaign=winter-2026`
const SEARCH_ENGINE = 'https://www.google.com/search?q=devops+consultancy+hyderabad'

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
  const { context, page } = await operator(browser, { javaScriptEnabled: false })
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
  await waitForHydration(page)
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
