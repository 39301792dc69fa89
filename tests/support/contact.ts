import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test'
import { EMPTY_VALUES } from '../../app/ledger/fields'
import type { ReceivedRequest, Scenario } from './form-service'
import { FORM_SERVICE_ORIGIN } from './servers'
import { type Enquiry, enquiry, uniqueClientAddress, uniqueEmail } from './values'

export { type Enquiry, enquiry, uniqueClientAddress, uniqueEmail }

export const test = base.extend<{ clientAddress: string }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  clientAddress: async ({}, use) => {
    await use(uniqueClientAddress())
  },
  extraHTTPHeaders: async ({ clientAddress }, use) => {
    await use({ 'CF-Connecting-IP': clientAddress })
  },
})

export { expect }

/** Makes the stand-in form service answer posts from `email` this way. */
export async function setScenario(email: string, scenario: Scenario) {
  const response = await fetch(`${FORM_SERVICE_ORIGIN}/__scenario`, {
    method: 'POST',
    body: JSON.stringify({ email, scenario }),
  })
  expect(response.ok).toBe(true)
}

/** What the stand-in form service received from `email`. */
export async function receivedFrom(email: string): Promise<ReceivedRequest[]> {
  const response = await fetch(`${FORM_SERVICE_ORIGIN}/__requests?email=${encodeURIComponent(email)}`)
  return (await response.json()) as ReceivedRequest[]
}

/** What the stand-in form service received from `email`, once it has (delivery runs after the answer). */
export async function receivedOnce(email: string): Promise<ReceivedRequest[]> {
  await expect.poll(async () => (await receivedFrom(email)).length, { timeout: 30_000 }).toBe(1)
  return receivedFrom(email)
}

/** Posts an enquiry to `origin` as a browser without JavaScript does, from its own address; expects it accepted. */
export async function postEnquiry(request: APIRequestContext, origin: string, values: Enquiry, label: string) {
  const answer = await request.post(`${origin}/api/contact`, {
    form: { ...values, enquiry_key: `${label}-${crypto.randomUUID()}` },
    headers: { Origin: origin, 'CF-Connecting-IP': uniqueClientAddress() },
  })
  expect(answer.status()).toBe(200)
}

export const form = (page: Page) => ({
  name: page.getByLabel('Full Name *'),
  email: page.getByLabel('Email Address *'),
  company: page.getByLabel('Company Name'),
  subject: page.getByLabel('Subject *'),
  message: page.getByLabel('Message *'),
  submit: page.getByRole('button', { name: /Send Message|Sending\.\.\./ }),
  status: page.locator('#contact-status'),
})

export async function fillForm(page: Page, values: Enquiry) {
  const f = form(page)
  await f.name.fill(values.name)
  await f.email.fill(values.email)
  await f.company.fill(values.company)
  await f.subject.selectOption(values.subject)
  await f.message.fill(values.message)
}

export async function expectFields(page: Page, values: Enquiry) {
  const f = form(page)
  await expect(f.name).toHaveValue(values.name)
  await expect(f.email).toHaveValue(values.email)
  await expect(f.company).toHaveValue(values.company)
  await expect(f.subject).toHaveValue(values.subject)
  await expect(f.message).toHaveValue(values.message)
}

export async function expectEmptyFields(page: Page) {
  await expectFields(page, EMPTY_VALUES)
}

/** The theme's success colour (app.css), as the browser computes it. */
export const SUCCESS_COLOUR = 'rgb(74, 222, 128)'
