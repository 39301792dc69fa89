import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '../../app/contact/status'
import {
  awayFromMinuteBoundary,
  DANGER_COLOUR,
  enquiry,
  expect,
  expectEmptyFields,
  expectFields,
  fillForm,
  form,
  receivedFrom,
  receivedOnce,
  SUCCESS_COLOUR,
  test,
} from '../support/contact'
import { expectStored } from '../support/enquiries'
import { collectProblems, gotoContactForm, holdAnswers, requestedUrls, waitForHydration } from '../support/page'
import { SITE_ORIGIN, SITE_PORT, TEST_ACCESS_KEY } from '../support/servers'
import { stateDir } from '../support/site-server'
import { EMAIL_ADDRESSES } from '../support/values'

// Delivery finishes after the visitor's answer; waiting for it can take a while on a busy machine.
test.describe.configure({ timeout: 90_000 })

test.describe('contact form in the browser', () => {
  test('a message is sent: green confirmation, every field cleared, the form service got it with the server key', async ({
    page,
  }) => {
    await gotoContactForm(page, '/contact')
    const values = enquiry('success', { name: 'శ్రీనివాస్ రావు', company: 'Zoë & Co' })
    await fillForm(page, values)
    await form(page).submit.click()

    const message = form(page).status.getByText(SUCCESS_MESSAGE)
    await expect(message).toBeVisible()
    await expect(message.locator('xpath=..')).toHaveCSS('color', SUCCESS_COLOUR)
    await expect(form(page).status).toHaveAttribute('role', 'status')
    await expectEmptyFields(page)

    // Stored first, then delivered: the form service got it once, with the server's key.
    const received = await receivedOnce(values.email)
    expect(received[0]?.json).toEqual({ ...values, access_key: TEST_ACCESS_KEY })
    expect(received[0]?.headers.accept).toBe('application/json')
    const row = await expectStored(stateDir(SITE_PORT), values.email, 'delivered', 1)
    expect(row).toMatchObject({
      name: values.name,
      company: values.company,
      message: values.message,
      subject: values.subject,
    })
  })

  test('while sending, the button reads "Sending..." and is disabled, and nothing is sent twice', async ({ page }) => {
    const values = enquiry('sending')
    await gotoContactForm(page, '/contact')
    await fillForm(page, values)
    // A slow network: the answer is held back until the test has tried to send again.
    const posts = requestedUrls(page, (r) => r.url().includes('/_serverFn/') && r.method() === 'POST')
    const held = await holdAnswers(page)
    await form(page).submit.click()

    await expect(form(page).submit).toHaveText('Sending...')
    await expect(form(page).submit).toBeDisabled()
    // A second click on the disabled button, Enter in a field, and a scripted submit: none sends again.
    await form(page).submit.click({ force: true })
    await form(page).name.press('Enter')
    await page.locator('form[action="/api/contact"]').evaluate((f: HTMLFormElement) => f.requestSubmit())
    // All three happened while the first message was still on its way.
    await expect(form(page).submit).toHaveText('Sending...', { timeout: 100 })
    expect(posts).toHaveLength(1)
    held.release()

    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible({ timeout: 15_000 })
    await expect(form(page).submit).toHaveText('Send Message')
    // One post left the browser, and the form service got one message.
    expect(posts).toHaveLength(1)
    await receivedOnce(values.email)
  })

  test('the status message is cleared when a new submit starts', async ({ page }) => {
    const values = enquiry('again')
    await gotoContactForm(page, '/contact')
    await fillForm(page, values)
    // The first post is lost on the way (the network drops it); the second's answer is held back
    // until the test has seen the message cleared.
    let posts = 0
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/_serverFn/**', async (route) => {
      if (posts++ === 0) return route.abort('connectionreset')
      const answer = await route.fetch()
      await released
      await route.fulfill({ response: answer })
    })
    await form(page).submit.click()
    const failure = form(page).status.getByText(FAILURE_MESSAGE)
    await expect(failure).toBeVisible()
    await expect(failure.locator('xpath=..')).toHaveCSS('color', DANGER_COLOUR)
    await expectFields(page, values)

    await form(page).submit.click()
    await expect(form(page).submit).toHaveText('Sending...')
    await expect(form(page).status).toHaveText('')
    release()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible({ timeout: 10_000 })
    await receivedOnce(values.email)
  })

  test('invalid input is shown next to each field, focus goes to the first, and nothing is sent', async ({ page }) => {
    const values = enquiry('invalid', { email: 'lakshmi@example..com' })
    await gotoContactForm(page, '/contact')
    const posts = requestedUrls(page, (r) => r.method() === 'POST')
    await fillForm(page, { ...values, name: '   ' })
    await form(page).submit.click()

    await expect(form(page).name).toBeFocused()
    await expect(form(page).name).toHaveAttribute('aria-invalid', 'true')
    await expect(form(page).name).toHaveAccessibleDescription('Please enter your name.')
    await expect(form(page).email).toHaveAccessibleDescription(
      'Please enter a valid email address, like name@example.com.',
    )
    await expect(form(page).company).not.toHaveAttribute('aria-invalid', 'true')
    await expect(form(page).status).toHaveText('')
    // The form refused it itself: nothing left the browser.
    expect(posts).toEqual([])
  })

  test('?subject=devops preselects the subject; an unknown value is ignored', async ({ page }) => {
    await gotoContactForm(page, '/contact?subject=devops')
    await expect(form(page).subject).toHaveValue('devops')
    await expect(form(page).subject.locator('option:checked')).toHaveText('DevOps & Cloud Automation')
    await gotoContactForm(page, '/contact?subject=voice-ai')
    await expect(form(page).subject).toHaveValue('voice-ai')
    await gotoContactForm(page, '/contact?subject=sales')
    await expect(form(page).subject).toHaveValue('')
    await expect(form(page).subject.locator('option:checked')).toHaveText('Select a subject')
  })

  test('a draft survives a reload, and is gone once the message is sent', async ({ page }) => {
    const values = enquiry('draft', { subject: 'automation' })
    await gotoContactForm(page, '/contact')
    await fillForm(page, values)
    const problems = collectProblems(page)
    await page.reload()
    await waitForHydration(page)
    await expectFields(page, values)
    // Restored after hydration: no mismatch warnings, no errors.
    expect(problems).toEqual([])

    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    await page.reload()
    await waitForHydration(page)
    await expectEmptyFields(page)
  })

  test('the honeypot: a bot that fills it is told the message was sent; the field goes with the post', async ({
    page,
  }) => {
    const values = enquiry('honeypot')
    await gotoContactForm(page, '/contact')
    await expect(page.locator('input[name="website"]')).toBeHidden()
    await fillForm(page, values)
    await page.locator('input[name="website"]').evaluate((input: HTMLInputElement) => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
      setValue?.call(input, 'https://cheap-pills.example')
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    const [post] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/_serverFn/') && r.method() === 'POST'),
      form(page).submit.click(),
    ])
    // What the server then does (stores nothing, forwards nothing) is tests/worker/contact-post.test.ts's.
    expect(post.postData()).toContain('cheap-pills.example')
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
  })

  test('over the rate limit (the 6th message in a minute from this client): the failure message, every field kept', async ({
    page,
    clientAddress,
  }) => {
    const sixth = enquiry('limit-6th')
    await gotoContactForm(page, '/contact')
    await fillForm(page, sixth)
    // Five from this client first, as the form's no-JS door takes them; the limiter counts in
    // windows of the wall clock's minutes, so the six fall in one window (a wait of at most 3 s).
    await awayFromMinuteBoundary(3)
    for (let i = 0; i < 5; i++) {
      const response = await page.request.post('/api/contact', {
        headers: { Origin: SITE_ORIGIN, 'CF-Connecting-IP': clientAddress, Accept: 'application/json' },
        form: { ...enquiry(`limit-${i}`) },
      })
      expect(response.status()).toBe(200)
    }
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/_serverFn/') && r.request().method() === 'POST'),
      form(page).submit.click(),
    ])
    expect(answer.status()).toBe(429)
    await expect(form(page).status.getByText(FAILURE_MESSAGE)).toBeVisible()
    await expectFields(page, sixth)
  })

  test('a resend after a network blip (the answer lost on the way back) is delivered once', async ({ page }) => {
    const values = enquiry('blip')
    await gotoContactForm(page, '/contact')
    await fillForm(page, values)
    // The first post reaches the server, which stores it; its answer never reaches the browser.
    let blips = 0
    await page.route('**/_serverFn/**', async (route) => {
      if (blips++ > 0) return route.continue()
      await route.fetch()
      await route.abort('connectionreset')
    })
    await form(page).submit.click()
    await expect(form(page).status.getByText(FAILURE_MESSAGE)).toBeVisible()
    await expectFields(page, values)

    // The resend carries the same form fill's key: the server keeps one enquiry (the ledger's side
    // of it is tests/worker/contact-post.test.ts's).
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    expect(blips).toBe(2)
    await expectStored(stateDir(SITE_PORT), values.email, 'delivered', 1)
    expect(await receivedFrom(values.email)).toHaveLength(1)
  })

  test('the browser, the form and the server agree on which addresses are addresses', async ({ page }) => {
    // The server's verdict on each is tests/worker/contact-post.test.ts's; these are the browser's.
    await gotoContactForm(page, '/contact')
    const browserSays = await page.evaluate(
      (addresses) => {
        const input = document.createElement('input')
        input.type = 'email'
        return addresses.map((address) => {
          input.value = address
          return input.checkValidity()
        })
      },
      EMAIL_ADDRESSES.map(([address]) => address),
    )
    expect(browserSays).toEqual(EMAIL_ADDRESSES.map(([, valid]) => valid))

    // And the visitor with the apostrophe gets through the form itself.
    const values = enquiry('apostrophe', { email: `o'brien-${Date.now()}@example.com` })
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    await expectStored(stateDir(SITE_PORT), values.email, 'delivered')
  })
})
