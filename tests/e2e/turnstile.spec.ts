import { expect, form, test } from '../support/contact'
import { enhancedContactForm, gotoContactForm, gotoHydrated, requestedUrls } from '../support/page'
import { FORM_SERVICE_ORIGIN, PORT_BASE, TEST_ACCESS_KEY } from '../support/servers'
import { type SiteServer, startSiteServer, stateDir } from '../support/site-server'
import { routeTurnstileWidget, TEST_TURNSTILE_SECRET, TEST_TURNSTILE_SITE_KEY } from '../support/turnstile'

// The Turnstile widget with Turnstile on (a server of its own): its script at its real address, loaded
// as the page's CSP allows. What the server does with a token: tests/unit/turnstile.test.ts.
test.describe.configure({ mode: 'default', timeout: 180_000 })

const PORT = PORT_BASE + 8
let server: SiteServer
let origin: string

test.beforeAll(async () => {
  test.setTimeout(180_000)
  server = await startSiteServer(
    'turnstile',
    PORT,
    {
      CONTACT_DELIVERY: 'form-service',
      CONTACT_FORM_ENDPOINT: `${FORM_SERVICE_ORIGIN}/submit`,
      CONTACT_FORM_ACCESS_KEY: TEST_ACCESS_KEY,
      TURNSTILE_SITE_KEY: TEST_TURNSTILE_SITE_KEY,
      TURNSTILE_SECRET_KEY: TEST_TURNSTILE_SECRET,
    },
    { persistTo: stateDir(PORT) },
  )
  origin = server.origin
})

test.afterAll(() => server?.stop())

test('the widget is not on first paint nor on other pages; it loads on the first focus, and the CSP allows its origin', async ({
  page,
}) => {
  const turnstileRequests = requestedUrls(page, (request) => request.url().includes('challenges.cloudflare.com'))
  const scriptRequests = await routeTurnstileWidget(page, 'pass-unused')
  const home = await gotoHydrated(page, `${origin}/`)
  const csp = home?.headers()['content-security-policy'] ?? ''
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/challenges\.cloudflare\.com(;|$)/)
  expect(csp).toContain('frame-src https://challenges.cloudflare.com')
  expect(csp.match(/challenges\.cloudflare\.com/g)).toHaveLength(2)

  await gotoHydrated(page, `${origin}/services/devops`)
  await gotoContactForm(page, `${origin}/contact`)
  expect(turnstileRequests, 'nothing from Turnstile on the pages or the form’s first paint').toEqual([])

  await form(page).name.focus()
  await expect(page.getByTestId('turnstile')).toHaveAttribute('data-widget', `${TEST_TURNSTILE_SITE_KEY} contact`)
  expect(scriptRequests).toHaveLength(1)
  expect(scriptRequests[0]?.url()).toBe('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit')
})

test('a field focused before the form’s code arrived starts the widget once the code is there', async ({ page }) => {
  const scriptRequests = await routeTurnstileWidget(page, 'pass-unused')
  await gotoHydrated(page, `${origin}/contact`)
  // The first focus is what fetches the form's code; focus then stays in this field, and React
  // hands that focus to the form once it has hydrated.
  await form(page).message.focus()
  await expect(enhancedContactForm(page)).toHaveCount(1)
  await expect(page.getByTestId('turnstile')).toHaveAttribute('data-widget', `${TEST_TURNSTILE_SITE_KEY} contact`)
  expect(scriptRequests).toHaveLength(1)
})

test('reached by an in-site navigation, the form asks for the site key and loads the widget on focus', async ({
  page,
}) => {
  const scriptRequests = await routeTurnstileWidget(page, 'pass-unused')
  await gotoHydrated(page, `${origin}/about`)
  await page.getByRole('link', { name: 'Contact', exact: true }).first().click()
  await expect(page.getByRole('heading', { name: 'Send us a message' })).toBeVisible()
  expect(scriptRequests).toHaveLength(0)
  await form(page).name.focus()
  await expect(page.getByTestId('turnstile')).toHaveAttribute('data-widget', `${TEST_TURNSTILE_SITE_KEY} contact`)
})
