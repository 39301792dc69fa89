import { SUCCESS_MESSAGE } from '../../app/contact/status'
import {
  enquiry,
  expect,
  expectEmptyFields,
  fillForm,
  form,
  receivedFrom,
  SUCCESS_COLOUR,
  test,
} from '../support/contact'
import { SITE_ORIGIN, TEST_ACCESS_KEY } from '../support/servers'

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
    expect(post.headers().location).toBe('/contact#contact-status')
    const outcomeCookie = (await post.headerValue('set-cookie')) ?? ''
    expect(outcomeCookie).toMatch(/^contact_outcome_0=.*; Path=\/contact; Max-Age=120; HttpOnly; SameSite=Strict/)
    const page303 = await outcomePage
    await page.waitForURL(`${SITE_ORIGIN}/contact#contact-status`)
    // The page that shows the outcome is never cached, and clears the cookie.
    expect(page303.headers()['cache-control']).toBe('no-store')
    expect(await page303.headerValue('set-cookie')).toMatch(/^contact_outcome_0=; Path=\/contact; Max-Age=0/)
    expect(page.url()).not.toContain(encodeURIComponent(values.email))

    const message = form(page).status.getByText(SUCCESS_MESSAGE)
    await expect(message).toBeVisible()
    await expect(message.locator('xpath=..')).toHaveCSS('color', SUCCESS_COLOUR)
    await expectEmptyFields(page)
    // The outcome cookie carries the outcome only: nothing the visitor wrote.
    const cookieValue = outcomeCookie.split(';')[0]?.split('=')[1] ?? ''
    const decoded = Buffer.from(
      (cookieValue.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'),
      'base64',
    ).toString()
    expect(JSON.parse(decoded)).toEqual({ status: 'success' })
    await expect.poll(async () => (await receivedFrom(values.email)).length, { timeout: 30_000 }).toBe(1)
    const received = await receivedFrom(values.email)
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

  test('the honeypot: a bot filling every field is sent to the success message, and nothing is forwarded', async ({
    page,
  }) => {
    const values = enquiry('nojs-bot')
    await page.goto('/contact')
    await fillForm(page, values)
    await page.locator('input[name="website"]').evaluate((input: HTMLInputElement) => {
      input.value = 'https://cheap-pills.example'
    })
    await form(page).submit.click()
    await page.waitForURL(`${SITE_ORIGIN}/contact#contact-status`)
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    expect(await receivedFrom(values.email)).toHaveLength(0)
  })

  test('the subject is preselected from ?subject= on the server-rendered page', async ({ page }) => {
    await page.goto('/contact?subject=automation')
    await expect(form(page).subject).toHaveValue('automation')
  })
})
