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
  setScenario,
  test,
} from '../support/contact'
import { collectProblems, gotoHydrated } from '../support/page'
import { TEST_ACCESS_KEY } from '../support/servers'

test.describe('contact form in the browser', () => {
  test('a message is sent: green confirmation, every field cleared, the form service got it with the server key', async ({
    page,
  }) => {
    await gotoHydrated(page, '/contact')
    const values = enquiry('success', { name: 'శ్రీనివాస్ రావు', company: 'Zoë & Co' })
    await fillForm(page, values)
    await form(page).submit.click()

    const message = form(page).status.getByText(SUCCESS_MESSAGE)
    await expect(message).toBeVisible()
    await expect(message.locator('xpath=..')).toHaveCSS('color', SUCCESS_COLOUR)
    await expect(form(page).status).toHaveAttribute('role', 'status')
    await expectEmptyFields(page)

    const received = await receivedFrom(values.email)
    expect(received).toHaveLength(1)
    expect(received[0]?.json).toEqual({ ...values, access_key: TEST_ACCESS_KEY })
    expect(received[0]?.headers.accept).toBe('application/json')
  })

  const failures = [
    ['the service answers success: false', { kind: 'failure' }],
    ['the service answers 500', { kind: 'status', status: 500 }],
    ['the service answers a page that is not JSON', { kind: 'html' }],
  ] as const
  for (const [what, scenario] of failures) {
    test(`when ${what}, the red failure message shows and every field keeps its value`, async ({ page }) => {
      const values = enquiry('failure')
      await setScenario(values.email, scenario)
      await gotoHydrated(page, '/contact')
      await fillForm(page, values)
      await form(page).submit.click()

      const message = form(page).status.getByText(FAILURE_MESSAGE)
      await expect(message).toBeVisible()
      await expect(message.locator('xpath=..')).toHaveCSS('color', DANGER_COLOUR)
      await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toHaveCount(0)
      await expectFields(page, values)
      expect(await receivedFrom(values.email)).toHaveLength(1)
    })
  }

  test('when the service never answers, the failure shows within the time-out and the fields are kept', async ({
    page,
  }) => {
    test.setTimeout(45_000)
    const values = enquiry('hang')
    await setScenario(values.email, { kind: 'hang' })
    await gotoHydrated(page, '/contact')
    await fillForm(page, values)
    const started = Date.now()
    await form(page).submit.click()
    await expect(form(page).submit).toHaveText('Sending...')
    await expect(form(page).status.getByText(FAILURE_MESSAGE)).toBeVisible({ timeout: 15_000 })
    const elapsed = Date.now() - started
    expect(elapsed).toBeGreaterThan(9_000)
    expect(elapsed).toBeLessThan(14_000)
    await expectFields(page, values)
    await expect(form(page).submit).toBeEnabled()
    expect(await receivedFrom(values.email)).toHaveLength(1)
  })

  test('while sending, the button reads "Sending..." and is disabled, and nothing is sent twice', async ({ page }) => {
    const values = enquiry('sending')
    await setScenario(values.email, { kind: 'slow', delayMs: 6_000 })
    await gotoHydrated(page, '/contact')
    await fillForm(page, values)
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
    expect(await receivedFrom(values.email)).toHaveLength(1)
  })

  test('the status message is cleared when a new submit starts', async ({ page }) => {
    const values = enquiry('again')
    await setScenario(values.email, { kind: 'failure' })
    await gotoHydrated(page, '/contact')
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(FAILURE_MESSAGE)).toBeVisible()

    await setScenario(values.email, { kind: 'slow', delayMs: 4_000 })
    await form(page).submit.click()
    await expect(form(page).submit).toHaveText('Sending...')
    await expect(form(page).status).toHaveText('')
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible({ timeout: 10_000 })
    expect(await receivedFrom(values.email)).toHaveLength(2)
  })

  test('invalid input is shown next to each field, focus goes to the first, and nothing is sent', async ({ page }) => {
    const values = enquiry('invalid', { email: 'lakshmi@example' })
    await gotoHydrated(page, '/contact')
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
    await gotoHydrated(page, '/contact?subject=devops')
    await expect(form(page).subject).toHaveValue('devops')
    await expect(form(page).subject.locator('option:checked')).toHaveText('DevOps & Cloud Automation')
    await gotoHydrated(page, '/contact?subject=voice-ai')
    await expect(form(page).subject).toHaveValue('voice-ai')
    await gotoHydrated(page, '/contact?subject=sales')
    await expect(form(page).subject).toHaveValue('')
    await expect(form(page).subject.locator('option:checked')).toHaveText('Select a subject')
  })

  test('a draft survives a reload, and is gone once the message is sent', async ({ page }) => {
    const values = enquiry('draft', { subject: 'automation' })
    await gotoHydrated(page, '/contact')
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
    await gotoHydrated(page, '/contact')
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
