import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { enquiry, expect, expectEmptyFields, fillForm, form, receivedFrom, setScenario, test } from '../support/contact'
import { expectStored, operatorCommand, runCron } from '../support/enquiries'
import type { Scenario } from '../support/form-service'
import { gotoContactForm } from '../support/page'
import { SITE_ORIGIN, SITE_PORT, siteOutput, TEST_ACCESS_KEY } from '../support/servers'
import { loggedLines, stateDir } from '../support/site-server'

// Generous: these tests wait for deliveries and time-outs, and some run wrangler as an operator does.
test.describe.configure({ timeout: 150_000 })

/**
 * Faults of the form service, seen by a visitor and by the operator. The main test site (whose log
 * the tests read) talks to the stand-in form service, which misbehaves in one way per enquiry. The
 * enquiry is stored before the service is called, so the visitor is told it was sent, and the
 * failed attempt is on record for the retries.
 */
/**
 * One fault of each kind that depends on the runtime (workerd's fetch, its time-out and its body
 * streaming), and one error answer. How each other answer is classified (400, 429, `success:
 * false`, HTML, truncated JSON, an empty body, a redirect…) is the same code, proven against a real
 * HTTP stand-in in tests/unit/contact-form-service.test.ts.
 */
const FAULTS: [string, Scenario, string][] = [
  ['never answers', { kind: 'hang' }, 'upstream_timeout'],
  ['answers after 11 seconds', { kind: 'slow', delayMs: 11_000 }, 'upstream_timeout'],
  ['resets the connection', { kind: 'reset' }, 'upstream_unreachable'],
  ['answers 503', { kind: 'status', status: 503, body: 'Service Unavailable' }, 'upstream_status'],
  ['answers a 20 MB body', { kind: 'huge', bytes: 20 * 1024 * 1024 }, 'upstream_answer_too_large'],
]

// Default retry delays on the main site: no enquiry here becomes due again while its test runs.
const server = { origin: SITE_ORIGIN, output: siteOutput }
const PORT = SITE_PORT

test.describe('faults of the form service', () => {
  for (const [what, scenario, cause] of FAULTS) {
    test(`when it ${what}: the visitor is told at once, the enquiry waits pending with the cause, one request, one log line (${cause})`, async ({
      page,
    }) => {
      test.setTimeout(120_000)
      const values = enquiry('fault', { message: `Private details for ${what}.` })
      await setScenario(values.email, scenario)
      await gotoContactForm(page, `${server.origin}/contact`)
      await fillForm(page, values)
      const started = Date.now()
      await form(page).submit.click()
      // Stored is what the visitor hears about; the service's time is not theirs to wait.
      await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
      expect(Date.now() - started).toBeLessThan(5_000)
      await expectEmptyFields(page)

      // The first attempt failed and is on record; the next is due after the first delay (1 min).
      await expect.poll(async () => (await receivedFrom(values.email)).length, { timeout: 15_000 }).toBe(1)
      const row = await expectStored(stateDir(PORT), values.email, 'pending', 1)
      expect(row.lastCause).toBe(cause)
      const due = Date.parse(row.nextAttemptAt ?? '') - Date.parse(row.receivedAt)
      expect(due).toBeGreaterThan(55_000)
      expect(due).toBeLessThan(75_000)

      // One structured line for the operator, naming the enquiry and the cause, nothing the visitor wrote.
      const lines = await loggedLines(server.output, (l) => l.enquiryId === row.id && l.outcome === 'retry_scheduled')
      const logged = lines[0] ?? {}
      expect(logged.cause).toBe(cause)
      if (cause === 'upstream_timeout') {
        // The Worker gave up on the service at 10 s, by its own clock: not sooner, not much later.
        expect(logged.upstreamMs).toBeGreaterThanOrEqual(10_000)
        expect(logged.upstreamMs).toBeLessThan(11_000)
      }
      const line = JSON.stringify(logged)
      expect(line).toMatch(/"requestId":"[\w-]{8,}"/)
      for (const secret of [values.email, values.name, values.message, TEST_ACCESS_KEY])
        expect(line).not.toContain(secret)
      expect(server.output()).not.toContain(TEST_ACCESS_KEY)
    })
  }

  test('the service down, then back: a scheduled run delivers the enquiry once, and later runs send nothing', async ({
    page,
  }) => {
    const values = enquiry('back')
    await setScenario(values.email, { kind: 'status', status: 503 })
    await gotoContactForm(page, `${server.origin}/contact`)
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    await expect.poll(async () => (await receivedFrom(values.email)).length, { timeout: 30_000 }).toBe(1)

    // Not due yet: a run leaves it alone.
    await runCron(server.origin)
    expect(await receivedFrom(values.email)).toHaveLength(1)

    // Due now (as the operator's `npm run enquiries -- retry` makes it), with the service back.
    await setScenario(values.email, { kind: 'success' })
    const row = await expectStored(stateDir(PORT), values.email, 'pending', 1)
    const retried = await operatorCommand('retry', row.id, '--persist-to', stateDir(PORT), '--url', server.origin)
    expect(retried).toContain(`Enquiry ${row.id} is due now`)
    const delivered = await expectStored(stateDir(PORT), values.email, 'delivered')
    expect(delivered.attempts).toBe(2)
    expect(delivered.deliveredBy).toBe('form-service')
    const received = await receivedFrom(values.email)
    expect(received).toHaveLength(2)
    expect(received[1]?.json).toEqual({ ...values, access_key: TEST_ACCESS_KEY })

    await runCron(server.origin)
    await runCron(server.origin)
    expect(await receivedFrom(values.email)).toHaveLength(2)
  })
})
