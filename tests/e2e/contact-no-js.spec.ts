import { SUCCESS_MESSAGE } from '../../app/contact/status'
import {
  enquiry,
  expect,
  expectEmptyFields,
  fillForm,
  form,
  receivedFrom,
  receivedOnce,
  SUCCESS_COLOUR,
  test,
} from '../support/contact'
import { SITE_ORIGIN, TEST_ACCESS_KEY } from '../support/servers'

// The form as a browser without JavaScript posts it, and what the visitor then sees. The post and
// its answer as HTTP (the outcome cookie, the headers, the honeypot, ?subject=) are
// tests/worker/contact-post.test.ts's.
// Delivery finishes after the visitor's answer; waiting for it can take a while on a busy machine.
test.describe.configure({ timeout: 90_000 })

test.describe('contact form without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('posts to the server, comes back with 303 to /contact and shows the success message', async ({ page }) => {
    const values = enquiry('nojs-ok', { subject: 'website', message: 'Line one\nLine two — ✓' })
    await page.goto('/contact')
    await fillForm(page, values)

    const outcomePage = page.waitForResponse(
      (r) => r.request().method() === 'GET' && new URL(r.url()).pathname === '/contact',
    )
    const [post] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/contact') && r.request().method() === 'POST'),
      form(page).submit.click(),
    ])
    expect(post.status()).toBe(303)
    await outcomePage
    await page.waitForURL(`${SITE_ORIGIN}/contact#contact-status`)
    expect(page.url()).not.toContain(encodeURIComponent(values.email))

    const message = form(page).status.getByText(SUCCESS_MESSAGE)
    await expect(message).toBeVisible()
    await expect(message.locator('xpath=..')).toHaveCSS('color', SUCCESS_COLOUR)
    await expectEmptyFields(page)
    const received = await receivedOnce(values.email)
    expect(received[0]?.json).toEqual({ ...values, access_key: TEST_ACCESS_KEY })

    // The outcome shows once: a reload shows the plain form.
    await page.reload()
    await expect(form(page).status).toHaveText('')
  })

  test('invalid input comes back with the messages next to the fields, and nothing is sent', async ({ page }) => {
    // Passes the browser's own checks (spaces fill a required field; the browser does not count an
    // address's length), not the server's.
    const values = enquiry('nojs-invalid', { email: `${'l'.repeat(250)}@example.com` })
    await page.goto('/contact')
    await fillForm(page, { ...values, name: '   ' })
    await form(page).submit.click()
    await page.waitForURL(`${SITE_ORIGIN}/contact#contact-status`)

    await expect(form(page).name).toHaveAttribute('aria-invalid', 'true')
    await expect(form(page).name).toHaveAccessibleDescription('Please enter your name.')
    await expect(form(page).email).toHaveAccessibleDescription('Email addresses can be at most 254 characters.')
    await expect(form(page).email).toHaveValue(values.email)
    await expect(form(page).message).toHaveValue(values.message)
    await expect(form(page).status).toHaveText('')
    expect(await receivedFrom(values.email)).toHaveLength(0)
  })
})
