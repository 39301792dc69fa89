import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '../../app/contact/status'
import {
  DANGER_COLOUR,
  enquiry,
  expect,
  expectEmptyFields,
  expectFields,
  fillForm,
  form,
  receivedFrom,
  SUCCESS_COLOUR,
  test,
} from '../support/contact'
import { expectStored } from '../support/enquiries'
import { collectProblems, gotoContactForm } from '../support/page'
import { SITE_PORT, TEST_ACCESS_KEY } from '../support/servers'
import { stateDir } from '../support/site-server'

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
    await expect.poll(async () => (await receivedFrom(values.email)).length, { timeout: 30_000 }).toBe(1)
    const received = await receivedFrom(values.email)
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
    // A slow network: the answer takes 3 s to come back.
    await page.route('**/_serverFn/**', async (route) => {
      const answer = await route.fetch()
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      await route.fulfill({ response: answer })
    })
    await form(page).submit.click()

    await expect(form(page).submit).toHaveText('Sending...')
    await expect(form(page).submit).toBeDisabled()
    // A second click on the disabled button, Enter in a field, and a scripted submit: none sends again.
    await form(page).submit.click({ force: true })
    await form(page).name.press('Enter')
    await page.locator('form[action="/api/contact"]').evaluate((f: HTMLFormElement) => f.requestSubmit())
    // All three happened while the first message was still on its way.
    await expect(form(page).submit).toHaveText('Sending...', { timeout: 100 })

    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible({ timeout: 15_000 })
    await expect(form(page).submit).toHaveText('Send Message')
    await expect.poll(async () => (await receivedFrom(values.email)).length, { timeout: 30_000 }).toBe(1)
    await page.waitForTimeout(500)
    expect(await receivedFrom(values.email)).toHaveLength(1)
  })

  test('the status message is cleared when a new submit starts', async ({ page }) => {
    const values = enquiry('again')
    await gotoContactForm(page, '/contact')
    await fillForm(page, values)
    // The first post is lost on the way (the network drops it); the second is slow.
    let posts = 0
    await page.route('**/_serverFn/**', async (route) => {
      if (posts++ === 0) return route.abort('connectionreset')
      const answer = await route.fetch()
      await new Promise((resolve) => setTimeout(resolve, 2_000))
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
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible({ timeout: 10_000 })
    await expect.poll(async () => (await receivedFrom(values.email)).length, { timeout: 30_000 }).toBe(1)
  })

  test('invalid input is shown next to each field, focus goes to the first, and nothing is sent', async ({ page }) => {
    const values = enquiry('invalid', { email: 'lakshmi@example..com' })
    await gotoContactForm(page, '/contact')
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
    await page.waitForTimeout(500)
    expect(await receivedFrom(values.email)).toHaveLength(0)
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
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await expectFields(page, values)
    // Restored after hydration: no mismatch warnings, no errors.
    expect(problems).toEqual([])

    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    await page.reload()
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await expectEmptyFields(page)
  })

  test('the honeypot: a bot that fills it is told the message was sent, and nothing is forwarded', async ({ page }) => {
    const values = enquiry('honeypot')
    await gotoContactForm(page, '/contact')
    await expect(page.locator('input[name="website"]')).toBeHidden()
    await fillForm(page, values)
    await page.locator('input[name="website"]').evaluate((input: HTMLInputElement) => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
      setValue?.call(input, 'https://cheap-pills.example')
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    await page.waitForTimeout(500)
    expect(await receivedFrom(values.email)).toHaveLength(0)
  })
})
