// Faults of the form service that depend on workerd's fetch; other answers: tests/unit/contact-form-service.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, describe, expect, test } from 'vitest'
import type { EnquiryRecord } from '../../app/ledger/record'
import type { Scenario } from '../support/form-service'
import { enquiry } from '../support/values'
import { siteUnderTest, standInsForFile, TEST_ACCESS_KEY } from './support/fixtures'
import { serverFnAnswer, submitContact } from './support/http'
import { enquiriesCommand } from './support/operator'

const FAULTS: [string, Scenario, string][] = [
  ['never answers', { kind: 'hang' }, 'upstream_timeout'],
  ['resets the connection', { kind: 'reset' }, 'upstream_unreachable'],
  ['answers 503', { kind: 'status', status: 503, body: 'Service Unavailable' }, 'upstream_status'],
  ['answers a 20 MB body', { kind: 'huge', bytes: 20 * 1024 * 1024 }, 'upstream_answer_too_large'],
]

// The local state in a folder, as `npm start` keeps it, for the operator's command to read.
const persistTo = mkdtempSync(join(tmpdir(), 'worker-faults-'))
afterAll(() => rmSync(persistTo, { recursive: true, force: true }))

const stand = standInsForFile()
// Default retry delays: no enquiry here becomes due again while its test runs.
const worker = siteUnderTest(() => ({ vars: stand.production(), persistTo }))

type Row = Pick<
  EnquiryRecord,
  'id' | 'status' | 'attempts' | 'lastCause' | 'receivedAt' | 'nextAttemptAt' | 'deliveredBy'
>
const rowOf = async (email: string) =>
  (
    await worker.sql<Row>(
      `SELECT id, status, attempts, last_cause AS lastCause, received_at AS receivedAt,
              next_attempt_at AS nextAttemptAt, delivered_by AS deliveredBy FROM enquiries WHERE email = ?`,
      email,
    )
  )[0]

describe('faults of the form service', () => {
  test.each(FAULTS)(
    'when it %s: the visitor is told at once, the enquiry waits pending with the cause, one request, one log line',
    async (what, scenario, cause) => {
      const values = enquiry('fault', { message: `Private details for ${what}.` })
      stand.forms.setScenario(values.email, scenario)
      const started = Date.now()
      const answer = await submitContact(worker, values)
      // Stored is what the visitor hears about; the service's time is not theirs to wait.
      expect(answer.status).toBe(200)
      expect(await serverFnAnswer(answer)).toMatchObject({ ok: true })
      expect(Date.now() - started).toBeLessThan(5_000)

      // The first attempt failed and is on record; the next is due after the first delay (1 min).
      await expect
        .poll(() => rowOf(values.email), { timeout: 25_000 })
        .toMatchObject({ status: 'pending', attempts: 1 })
      expect(stand.forms.from(values.email)).toHaveLength(1)
      const row = (await rowOf(values.email)) as Row
      expect(row.lastCause).toBe(cause)
      const due = Date.parse(row.nextAttemptAt ?? '') - Date.parse(row.receivedAt)
      expect(due).toBeGreaterThan(55_000)
      expect(due).toBeLessThan(75_000)

      // One structured line for the operator, naming the enquiry and the cause, nothing the visitor wrote.
      const [logged = {}] = await worker.logged((l) => l.enquiryId === row.id && l.outcome === 'retry_scheduled')
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
      expect(worker.output()).not.toContain(TEST_ACCESS_KEY)
    },
  )

  test('the service down, then back: the operator’s `npm run enquiries -- retry` delivers the enquiry once, and later runs send nothing', {
    timeout: 90_000,
  }, async () => {
    const values = enquiry('back')
    stand.forms.setScenario(values.email, { kind: 'status', status: 503 })
    expect((await submitContact(worker, values)).status).toBe(200)
    await expect.poll(() => rowOf(values.email)).toMatchObject({ status: 'pending', attempts: 1 })

    // Not due yet: a run leaves it alone.
    await worker.cron()
    expect(stand.forms.from(values.email)).toHaveLength(1)

    // Due now, as the operator's command makes it, with the service back.
    stand.forms.setScenario(values.email, { kind: 'success' })
    const row = (await rowOf(values.email)) as Row
    const retried = await enquiriesCommand('retry', row.id, '--persist-to', persistTo, '--url', await worker.cronDoor())
    expect(retried.code, retried.stderr).toBe(0)
    expect(retried.stdout).toContain(`Enquiry ${row.id} is due now`)
    expect(retried.stdout).toContain('now delivered')
    const delivered = (await rowOf(values.email)) as Row
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2, deliveredBy: 'form-service' })
    const received = stand.forms.from(values.email)
    expect(received).toHaveLength(2)
    expect(received[1]?.json).toEqual({ ...values, access_key: TEST_ACCESS_KEY })

    await worker.cron()
    await worker.cron()
    expect(stand.forms.from(values.email)).toHaveLength(2)
  })
})

test("the operator's command waits out the running site's lock on the database file instead of failing", async () => {
  // `npm start` keeps the file open; a write that meets its lock fails at once with SQLITE_BUSY.
  // The command opens the database once (a workerd of its own) and meets the lock on its first batch.
  const values = enquiry('locked')
  stand.forms.setScenario(values.email, { kind: 'status', status: 503 })
  expect((await submitContact(worker, values)).status).toBe(200)
  await expect.poll(() => rowOf(values.email)).toMatchObject({ status: 'pending', attempts: 1 })
  const row = (await rowOf(values.email)) as Row
  const d1 = join(persistTo, 'v3', 'd1')
  const file = readdirSync(d1, { recursive: true, encoding: 'utf8' }).find(
    (name) => name.endsWith('.sqlite') && !name.includes('metadata'),
  )
  const locker = new DatabaseSync(join(d1, file as string))
  locker.exec('BEGIN IMMEDIATE')
  const command = spawn('npm', ['run', '--silent', 'enquiries', '--', 'retry', row.id, '--persist-to', persistTo])
  let stdout = ''
  let stderr = ''
  command.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk
  })
  command.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk
    // The command met the lock and said so: the site's write ends, as one does.
    if (stderr.includes('locked by the running site') && locker.isTransaction) locker.exec('COMMIT')
  })
  const code = await new Promise<number | null>((resolve) => command.on('close', resolve))
  if (locker.isTransaction) locker.exec('ROLLBACK')
  locker.close()
  expect(stderr).toContain('The database is locked by the running site: trying again.')
  expect(code, stderr).toBe(0)
  expect(stdout).toContain(`Enquiry ${row.id} is due now`)
}, 120_000)
