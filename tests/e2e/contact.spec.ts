import { SUCCESS_MESSAGE } from '../../app/contact/status'
import {
  enquiry,
  expect,
  expectEmptyFields,
  expectFields,
  fillForm,
  form,
  SUCCESS_COLOUR,
  test,
} from '../support/contact'
import { expectStored } from '../support/enquiries'
import { collectProblems, gotoContactForm, waitForHydration } from '../support/page'
import { SITE_PORT } from '../support/servers'
import { stateDir } from '../support/site-server'
import { EMAIL_ADDRESSES } from '../support/values'

// Delivery finishes after the visitor's answer; waiting for it can take a while on a busy machine.
test.describe.configure({ timeout: 90_000 })

test.describe('contact form in the browser', () => {
  test('a message is sent: green confirmation, every field cleared, delivered once', async ({ page }) => {
    await gotoContactForm(page, '/contact')
    const values = enquiry('success', { name: 'శ్రీనివాస్ రావు', company: 'Zoë & Co' })
    await fillForm(page, values)
    await form(page).submit.click()

    const message = form(page).status.getByText(SUCCESS_MESSAGE)
    await expect(message).toBeVisible()
    await expect(message.locator('xpath=..')).toHaveCSS('color', SUCCESS_COLOUR)
    await expect(form(page).status).toHaveAttribute('role', 'status')
    await expectEmptyFields(page)
    // What the server stores and forwards: tests/worker/contact-post.test.ts.
    await expectStored(stateDir(SITE_PORT), values.email, 'delivered', 1)
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

  test('the browser, the form and the server agree on which addresses are addresses', async ({ page }) => {
    // The server's verdict on each is tests/unit/contact-schema.test.ts's; these are the browser's.
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
