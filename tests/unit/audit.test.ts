// @vitest-environment node
// The desk's audit trail (append-only; no line, no action) and requests by person, on real SQLite.
import { readFileSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { facts } from '~/content/facts'
import { privacyPage } from '~/content/privacy'
import { handlePersonExport } from '~/desk/person.server'
import type { Enquiry } from '~/ledger'
import { auditOf, purgeAudit, recordAudit, recordOpen } from '~/ledger/audit.server'
import { eraseEnquiry, parsePersonEmail, personEnquiries } from '~/ledger/index.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { type AccessKeyServer, startAccessKeys, TEST_OPERATOR } from '../support/access-keys'
import { captureConsole } from '../support/console'
import { type SqliteD1, sqliteD1 } from '../support/d1-sqlite'
import { deskPost, flashOf, storedEnquiry } from '../support/ledger'

let keys: AccessKeyServer
let d1: SqliteD1

beforeAll(async () => {
  keys = await startAccessKeys()
})
afterAll(() => keys.close())
beforeEach(() => {
  d1 = sqliteD1()
  captureConsole()
})
afterEach(() => d1.close())

const env = (): WorkerEnv => ({ ENQUIRIES: d1.db, ...keys.vars() }) as WorkerEnv

let counter = 0
const stored = (fields: Partial<Enquiry> = {}) =>
  storedEnquiry(
    d1.db,
    new Date(Date.now() - ++counter * 1000).toISOString(),
    { message: 'A private message', ...fields },
    true,
  )

const post = (fields: Record<string, string>) => deskPost(keys, env(), fields)
const flash = async (fields: Record<string, string>) => flashOf(await post(fields))
const lines = () => d1.query<{ seq: number; action: string; enquiry_id: string | null }>('SELECT * FROM audit_log')

describe('the audit trail is append-only in the database', () => {
  it('refuses to change a line, or to delete one younger than the retention', async () => {
    await recordAudit(d1.db, { operator: TEST_OPERATOR, action: 'open', enquiryId: 'x' })
    expect(() => d1.sqlite.exec(`UPDATE audit_log SET operator = 'someone@else.example'`)).toThrow(/append-only/)
    expect(() => d1.sqlite.exec(`UPDATE audit_log SET at = '2000-01-01T00:00:00.000Z'`)).toThrow(/append-only/)
    expect(() => d1.sqlite.exec('DELETE FROM audit_log')).toThrow(/append-only/)
    await expect(d1.db.prepare('DELETE FROM audit_log').run()).rejects.toThrow(/append-only/)
    expect(lines()).toEqual([expect.objectContaining({ action: 'open', enquiry_id: 'x', operator: TEST_OPERATOR })])
  })

  it('refuses an insert that would replace a line: INSERT OR REPLACE with an explicit seq', async () => {
    await recordAudit(d1.db, { operator: TEST_OPERATOR, action: 'erase', enquiryId: 'kept' })
    const [first] = lines()
    const replace = `INSERT OR REPLACE INTO audit_log (seq, at, operator, action, enquiry_id, detail)
      VALUES (${first?.seq}, '2026-01-01T00:00:00.000Z', 'someone@else.example', 'open', 'other', '')`
    expect(() => d1.sqlite.exec(replace)).toThrow(/append-only/)
    await expect(d1.db.prepare(replace).run()).rejects.toThrow(/append-only/)
    expect(() => d1.sqlite.exec(replace.replace('INSERT OR REPLACE', 'REPLACE'))).toThrow(/append-only/)
    expect(lines()).toEqual([expect.objectContaining({ seq: first?.seq, action: 'erase', enquiry_id: 'kept' })])
    await recordAudit(d1.db, { operator: TEST_OPERATOR, action: 'open', enquiryId: 'next' })
    expect(lines()).toHaveLength(2)
  })

  it('the cron purge deletes only lines older than the retention, which the migration and the privacy page state', async () => {
    const old = new Date(Date.now() - (facts.auditRetentionDays + 1) * 86_400_000)
    const young = new Date(Date.now() - (facts.auditRetentionDays - 1) * 86_400_000)
    await recordAudit(d1.db, { operator: TEST_OPERATOR, action: 'open', enquiryId: 'old' }, old)
    await recordAudit(d1.db, { operator: TEST_OPERATOR, action: 'open', enquiryId: 'young' }, young)
    expect(await purgeAudit(d1.db)).toBe(1)
    expect(lines().map((line) => line.enquiry_id)).toEqual(['young'])

    const migration = readFileSync(new URL('../../migrations/0006_audit.sql', import.meta.url), 'utf8')
    expect(migration).toContain(`'now', '-${facts.auditRetentionDays} days'`)
    const text = privacyPage.sections.flatMap((section) => section.paragraphs).join(' ')
    expect(text).toContain(`${facts.auditRetentionDays} days`)
    expect(text).toContain(site.email)
  })

  it('an enquiry erased keeps its lines, with its id only', async () => {
    const id = await stored()
    await recordOpen(d1.db, TEST_OPERATOR, id)
    await eraseEnquiry(d1.db, id)
    const trail = await auditOf(d1.db, id)
    expect(trail).toHaveLength(1)
    expect(JSON.stringify(trail)).not.toContain('A private message')
    expect(JSON.stringify(trail)).not.toContain('@example.com')
  })

  it('an open is written once a minute per operator and enquiry', async () => {
    const t = Date.parse('2026-11-24T09:00:00.000Z')
    await recordOpen(d1.db, TEST_OPERATOR, 'e', new Date(t))
    await recordOpen(d1.db, TEST_OPERATOR, 'e', new Date(t + 30_000))
    await recordOpen(d1.db, 'other@aksharalabs.in', 'e', new Date(t + 30_000))
    await recordOpen(d1.db, TEST_OPERATOR, 'e', new Date(t + 61_000))
    expect(await auditOf(d1.db, 'e')).toHaveLength(3)
  })
})

describe('every action is recorded, or not done', () => {
  it('mark handled and erase each leave a line naming the operator and the enquiry; an unconfirmed erase none', async () => {
    const id = await stored()
    expect((await post({ action: 'handled', id })).status).toBe(303)
    await post({ action: 'erase', id })
    await post({ action: 'erase', id, confirm: id })
    expect((await auditOf(d1.db, id)).map((line) => [line.action, line.operator, line.detail])).toEqual([
      ['handled', TEST_OPERATOR, 'was held'],
      ['erase', TEST_OPERATOR, 'was handled'],
    ])
  })

  it('when the line cannot be written, the action answers 503 and changes nothing', async () => {
    const id = await stored()
    d1.failNext(undefined, /INSERT INTO audit_log/)
    const answer = await post({ action: 'erase', id, confirm: id })
    expect(answer.status).toBe(503)
    expect(d1.row('SELECT id FROM enquiries WHERE id = ?1', id)).toBeTruthy()
    expect(lines()).toHaveLength(0)
  })

  it('release and retry: checked first (nothing to do, no line), then the line, then the attempt; no line, no attempt', async () => {
    const id = await stored()
    d1.sqlite.exec(`UPDATE enquiries SET status = 'delivered' WHERE id = '${id}'`)
    expect(await flash({ action: 'retry', id })).toBe('not-retried')
    expect(await flash({ action: 'release', id })).toBe('not-held')
    expect(lines()).toHaveLength(0)

    const held = await stored()
    d1.failNext(undefined, /INSERT INTO audit_log/)
    expect((await post({ action: 'release', id: held })).status).toBe(503)
    const state = d1.row('SELECT status, attempts FROM enquiries WHERE id = ?1', held)
    expect(state).toEqual({ status: 'held', attempts: 0 })
    expect(lines()).toHaveLength(0)

    // No delivery is configured here, so the attempt waits as pending.
    expect(await flash({ action: 'release', id: held })).toBe('not-configured')
    expect((await auditOf(d1.db, held)).map((line) => [line.action, line.detail])).toEqual([['release', 'was held']])
    expect(d1.row('SELECT status FROM enquiries WHERE id = ?1', held)).toEqual({ status: 'pending' })
    d1.failNext(undefined, /INSERT INTO audit_log/)
    expect((await post({ action: 'retry', id: held })).status).toBe(503)
    expect(d1.row('SELECT status FROM enquiries WHERE id = ?1', held)).toEqual({ status: 'pending' })
    expect(await auditOf(d1.db, held)).toHaveLength(1)
  })
})

describe('a line records what was done, checked before it is written', () => {
  const trail = async (id: string) => (await auditOf(d1.db, id)).map((line) => [line.action, line.detail])

  it('an assign to someone not on the list, or of any length, writes no line and changes nothing', async () => {
    const id = await stored()
    for (const owner of ['someone@elsewhere.example', `${'x'.repeat(300)}@aksharalabs.in`, 'Hello, call us now'])
      expect(await flash({ action: 'triage-assign', id, owner })).toBe('triage-unknown-operator')
    expect(await trail(id)).toEqual([])
    expect(d1.row('SELECT owner FROM enquiries WHERE id = ?1', id)).toEqual({ owner: null })
    await post({ action: 'triage-assign', id, owner: TEST_OPERATOR.toUpperCase() })
    expect(await trail(id)).toEqual([['triage-assign', `to ${TEST_OPERATOR}`]])
  })

  it('a refused or unchanged move, and a move on a page that showed another triage, write no line', async () => {
    const id = await stored()
    await post({ action: 'triage-take', id })
    await post({ action: 'triage-take', id })
    await post({ action: 'triage-state', id, state: 'closed' })
    const stale = { 'seen-state': 'new', 'seen-outcome': '', 'seen-owner': '' }
    expect(await flash({ action: 'triage-close', id, outcome: 'spam', ...stale })).toBe('triage-stale')
    expect(await trail(id)).toEqual([['triage-take', '']])
    expect(d1.row('SELECT triage, outcome FROM enquiries WHERE id = ?1', id)).toEqual({ triage: 'open', outcome: null })
  })

  it('mark handled on a page that showed another status, or on a handled one, writes no line', async () => {
    const id = await stored()
    expect(await flash({ action: 'handled', id, 'seen-status': 'pending' })).toBe('status-stale')
    expect((await post({ action: 'erase', id, confirm: id, 'seen-status': 'delivered' })).status).toBe(303)
    expect(d1.row('SELECT status FROM enquiries WHERE id = ?1', id)).toEqual({ status: 'held' })
    await post({ action: 'handled', id, 'seen-status': 'held' })
    await post({ action: 'handled', id })
    expect(await trail(id)).toEqual([['handled', 'was held']])
  })
})

describe('requests by person', () => {
  it('finds the address exactly, ignoring case; the export holds every enquiry and its history; erase-all erases what the page showed', async () => {
    const a = await stored({ email: 'Asha.Rao@Example.com', message: 'First' })
    const b = await stored({ email: 'asha.rao@example.com', message: 'Second' })
    const other = await stored({ email: 'rao@example.com' })
    expect(parsePersonEmail('  ASHA.RAO@example.COM ')).toBe('asha.rao@example.com')
    expect(parsePersonEmail('not an address')).toBeNull()
    expect((await personEnquiries(d1.db, 'asha.rao@example.com')).map((row) => row.id).sort()).toEqual([a, b].sort())
    d1.sqlite.exec(
      `INSERT INTO enquiry_attempts (enquiry_id, attempt, attempted_at, delivery, outcome, cause) VALUES ('${a}', 1, '2026-11-24T00:00:00.000Z', 'form-service', 'failed', 'upstream_status')`,
    )

    const exported = await handlePersonExport(
      new Request('https://aksharalabs.in/admin/person/export.json?email=ASHA.RAO%40example.com', {
        headers: { 'Cf-Access-Jwt-Assertion': await keys.sign() },
      }),
      env(),
    )
    expect(exported.headers.get('Content-Disposition')).toMatch(/^attachment; filename="person-export-[\d-]+\.json"$/)
    const data = (await exported.json()) as { email: string; enquiries: Record<string, unknown>[] }
    expect(data.email).toBe('asha.rao@example.com')
    expect(data.enquiries.map((row) => row.message).sort()).toEqual(['First', 'Second'])
    const first = data.enquiries.find((row) => row.id === a)
    const attempt = { attempted_at: '2026-11-24T00:00:00.000Z', delivery: 'form-service', cause: 'upstream_status' }
    expect(first?.attempts).toEqual([{ attempt: 1, outcome: 'failed', ...attempt }])
    expect(first).not.toHaveProperty('lease_token')
    expect(first).not.toHaveProperty('idempotency_key')
    expect((await auditOf(d1.db, a)).map((line) => line.action)).toEqual(['person-export'])

    // Only the ids the confirmation page listed (b came later, say), and only this address's.
    const email = 'asha.rao@example.com'
    const answer = await post({ action: 'erase-person', id: '', email, ids: `${a},${other}`, confirm: 'person' })
    expect(answer.headers.get('Location')).toBe('/admin/person?email=asha.rao%40example.com&flash=person-erased')
    expect(d1.query('SELECT id FROM enquiries ORDER BY id').map((row) => row.id)).toEqual([b, other].sort())
    expect(d1.query('SELECT * FROM enquiry_attempts WHERE enquiry_id = ?1', a)).toHaveLength(0)
    expect((await auditOf(d1.db, a)).map((line) => line.action)).toEqual(['person-export', 'person-erase'])

    const unconfirmed = await post({ action: 'erase-person', id: '', email, ids: b })
    expect(unconfirmed.headers.get('Location')).toBe('/admin/person/erase?email=asha.rao%40example.com')
    expect(d1.row('SELECT id FROM enquiries WHERE id = ?1', b)).toBeTruthy()
  })
})
