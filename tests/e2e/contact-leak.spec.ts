import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '../../app/contact/status'
import {
  awayFromMinuteBoundary,
  enquiry,
  expect,
  fillForm,
  form,
  receivedFrom,
  setScenario,
  test,
  uniqueClientAddress,
} from '../support/contact'
import { gotoContactForm, gotoHydrated } from '../support/page'
import { PAGES } from '../support/routes'
import { TEST_ACCESS_KEY } from '../support/servers'

// Delivery finishes after the visitor's answer; waiting for it can take a while on a busy machine.
test.describe.configure({ timeout: 90_000 })

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

test('the access key never reaches the browser: no response on any route, no file of the client build', async ({
  page,
}) => {
  test.setTimeout(90_000)
  const bodies: { url: string; status: number; body: string }[] = []
  const pending: Promise<void>[] = []
  page.on('response', (response) => {
    pending.push(
      response
        .body()
        .then((body) => {
          bodies.push({ url: response.url(), status: response.status(), body: body.toString('latin1') })
        })
        .catch(() => {}),
    )
  })

  // The form flow: a message sent, a message the service refuses (stored, and its failed attempt
  // on record), a message refused by the rate limit, the no-JS outcome page.
  await gotoContactForm(page, '/contact')
  const sent = enquiry('leak-ok')
  await fillForm(page, sent)
  await form(page).submit.click()
  await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()

  const refused = enquiry('leak-fail')
  await setScenario(refused.email, { kind: 'failure' })
  await fillForm(page, refused)
  await form(page).submit.click()
  await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
  await expect.poll(async () => (await receivedFrom(refused.email)).length, { timeout: 30_000 }).toBe(1)
  // A failure answer from the server function, too: the answer to a post refused by the rate limit.
  const limited = uniqueClientAddress()
  await page.route('**/_serverFn/**', (route) =>
    route.continue({ headers: { ...route.request().headers(), 'cf-connecting-ip': limited } }),
  )
  await awayFromMinuteBoundary()
  // Six messages, each sent only once the previous answer is in: the sixth is over the limit.
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) {
    await fillForm(page, enquiry(`leak-limit-${i}`))
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/_serverFn/') && r.request().method() === 'POST'),
      form(page).submit.click(),
    ])
    statuses.push(answer.status())
    await expect(form(page).submit).toHaveText('Send Message')
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  await expect(form(page).status.getByText(FAILURE_MESSAGE)).toBeVisible()
  await page.unroute('**/_serverFn/**')

  // Every page, rendered on the server and navigated to in the browser, and the JSON endpoints.
  for (const { path } of PAGES) await gotoHydrated(page, path)
  await page.goto('/api/health')
  await page.goto('/this-page-does-not-exist')

  await Promise.all(pending)
  const kinds = new Set(bodies.map((b) => b.url.split('?')[0]?.split('.').pop()))
  expect(bodies.length).toBeGreaterThan(PAGES.length)
  expect(bodies.some((b) => b.url.includes('/_serverFn/'))).toBe(true)
  expect(kinds.has('js')).toBe(true)
  expect(kinds.has('css')).toBe(true)
  const leaks = bodies.filter((b) => b.body.includes(TEST_ACCESS_KEY)).map((b) => b.url)
  expect(leaks).toEqual([])

  const clientFiles = filesUnder('dist/client')
  expect(clientFiles.length).toBeGreaterThan(5)
  const leakingFiles = clientFiles.filter((file) => readFileSync(file).includes(TEST_ACCESS_KEY))
  expect(leakingFiles).toEqual([])
  for (const file of clientFiles.filter((f) => f.endsWith('.js'))) {
    expect(readFileSync(file, 'utf8'), file).not.toContain('CONTACT_FORM_ACCESS_KEY')
  }
})
