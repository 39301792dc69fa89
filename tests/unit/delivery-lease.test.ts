// @vitest-environment node
// Exactly once, whoever presses what: each attempt's lease, and an operator's retry or release, on real SQLite.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { deliverDueEnquiries } from '~/contact/attempts.server'
import { submitEnquiry } from '~/contact/contact.server'
import { LEASE_MS, RELEASE_FROM, RETRY_FROM } from '~/ledger'
import { claimEnquiry, liveLeaseUntil, markHandled, recordAttempt, requeueEnquiry } from '~/ledger/index.server'
import { type AccessKeyServer, startAccessKeys, TEST_OPERATOR, TEST_OPERATOR_ID } from '../support/access-keys'
import { enquiryInput } from '../support/enquiry-input'
import { waitUntilCollector } from '../support/fake-env'
import { deskPost, flashOf, storedEnquiry } from '../support/ledger'
import { form, env as harnessEnv, printed, type Row, setUpSubmitHarness } from '../support/submit-harness'

const T0 = '2026-11-23T12:00:00.000Z'
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString()

let keys: AccessKeyServer
beforeAll(async () => {
  keys = await startAccessKeys()
})
afterAll(() => keys.close())
setUpSubmitHarness()

const env = () => harnessEnv(keys.vars())

/** A stored enquiry, pending and due at T0, that no attempt holds. */
const pending = () => storedEnquiry(form.d1.db, T0)

type LeaseRow = Row & { lease_token: string | null; lease_until: string | null }
const row = (id: string) => form.d1.row<LeaseRow>('SELECT * FROM enquiries WHERE id = ?1', id)
const history = (id: string) =>
  form.d1.query<{ attempt: number; attempted_at: string; outcome: string; cause: string | null }>(
    'SELECT attempt, attempted_at, outcome, cause FROM enquiry_attempts WHERE enquiry_id = ?1 ORDER BY attempt',
    id,
  )
const result = (ok: boolean) => (attempt: number, attemptedAt: string) => ({
  attempt,
  attemptedAt,
  delivery: 'form-service',
  ...(ok
    ? { status: 'delivered' as const, cause: null, nextAttemptAt: null }
    : { status: 'pending' as const, cause: 'upstream_status', nextAttemptAt: at(3_600_000) }),
})
const failed = result(false)
const delivered = result(true)

async function press(action: 'retry' | 'release' | 'handled', id: string): Promise<string | null> {
  const response = await deskPost(keys, env(), { action, id })
  expect(response.status).toBe(303)
  return flashOf(response)
}

const auditActions = (id: string) =>
  (
    form.d1.sqlite.prepare('SELECT action FROM audit_log WHERE enquiry_id = ? ORDER BY seq').all(id) as {
      action: string
    }[]
  ).map((line) => line.action)

/** A form service that keeps the next answer until `release()`. */
function holdAnswers() {
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  form.answer = async () => {
    await held
    return Response.json({ success: true })
  }
  return () => release()
}

describe('the lease of one attempt', () => {
  it('a claim writes a fresh token and its end; a second claim while it is live gets nothing', async () => {
    const id = await pending()
    const first = await claimEnquiry(form.d1.db, id, at(0), at(LEASE_MS))
    expect(first?.token).toMatch(/^[0-9a-f-]{36}$/)
    const lease = at(LEASE_MS)
    expect(row(id)).toMatchObject({ lease_token: first?.token, lease_until: lease, next_attempt_at: lease })
    expect(await claimEnquiry(form.d1.db, id, at(1_000), at(1_000 + LEASE_MS))).toBeNull()
    expect(await claimEnquiry(form.d1.db, id, at(LEASE_MS - 1), at(2 * LEASE_MS))).toBeNull()
    expect(await liveLeaseUntil(form.d1.db, id, at(1_000))).toBe(at(LEASE_MS))
  })

  it('the result is recorded with the right token, and ends the lease; with a wrong one nothing changes', async () => {
    const id = await pending()
    const claim = await claimEnquiry(form.d1.db, id, at(0), at(LEASE_MS))
    expect(await recordAttempt(form.d1.db, id, 'not-the-token', delivered(1, at(5)))).toBe('lease_lost')
    expect(row(id)).toMatchObject({ status: 'pending', attempts: 0, lease_token: claim?.token })
    expect(history(id)).toEqual([])

    expect(await recordAttempt(form.d1.db, id, claim?.token ?? '', failed(1, at(5)))).toBe('recorded')
    expect(row(id)).toMatchObject({ status: 'pending', attempts: 1, lease_token: null, lease_until: null })
    expect(history(id)).toEqual([{ attempt: 1, attempted_at: at(5), outcome: 'failed', cause: 'upstream_status' }])
    // The same token once more: its lease is over.
    expect(await recordAttempt(form.d1.db, id, claim?.token ?? '', delivered(2, at(6)))).toBe('lease_lost')
    expect(row(id)).toMatchObject({ status: 'pending', attempts: 1 })
    expect(history(id)).toHaveLength(1)
  })

  it('an expired lease is claimed again, and the late result of the first attempt changes nothing', async () => {
    const id = await pending()
    const cutOff = await claimEnquiry(form.d1.db, id, at(0), at(LEASE_MS))
    const again = await claimEnquiry(form.d1.db, id, at(LEASE_MS), at(2 * LEASE_MS))
    expect(again?.token).toBeTruthy()
    expect(again?.token).not.toBe(cutOff?.token)
    expect(await recordAttempt(form.d1.db, id, again?.token ?? '', delivered(1, at(LEASE_MS + 5)))).toBe('recorded')
    expect(await recordAttempt(form.d1.db, id, cutOff?.token ?? '', failed(1, at(LEASE_MS + 9)))).toBe('lease_lost')
    expect(row(id)).toMatchObject({ status: 'delivered', attempts: 1 })
    expect(history(id)).toEqual([{ attempt: 1, attempted_at: at(LEASE_MS + 5), outcome: 'delivered', cause: null }])
  })

  it('the visitor is answered before the delivery ends; that first attempt holds a lease from the store on', async () => {
    const release = holdAnswers()
    const work = waitUntilCollector()
    const request = new Request('https://aksharalabs.in/_serverFn/x', { method: 'POST' })
    const options = { requestId: 'r', env: env(), request, waitUntil: work.waitUntil }
    expect(await submitEnquiry(enquiryInput('first-attempt'), options)).toMatchObject({ kind: 'stored', repeat: false })
    expect(work.pending).toHaveLength(1)
    await vi.waitFor(() => expect(form.posts).toHaveLength(1))
    const id = form.d1.row<{ id: string }>('SELECT id FROM enquiries')?.id ?? ''
    expect(row(id)).toMatchObject({ status: 'pending', attempts: 0, lease_token: expect.any(String) })
    // Meanwhile a scheduled run finds nothing due, and an operator's retry is busy: neither sends.
    const soon = () => new Date(Date.now() + LEASE_MS - 1_000)
    expect(await deliverDueEnquiries(env(), { now: soon })).toMatchObject({ due: 0 })
    expect(await press('retry', id)).toBe('busy')
    release()
    await work.settle()
    expect(form.posts).toHaveLength(1)
    expect(row(id)).toMatchObject({ status: 'delivered', attempts: 1, lease_token: null })
  })
})

describe('retry and release never break a live lease', () => {
  it('the ledger refuses a retry or release during a live lease, and allows it once the lease is over', async () => {
    const id = await pending()
    await claimEnquiry(form.d1.db, id, at(0), at(LEASE_MS))
    expect(await requeueEnquiry(form.d1.db, id, at(1_000), RETRY_FROM)).toBe(false)
    expect(row(id)?.next_attempt_at).toBe(at(LEASE_MS))
    expect(await requeueEnquiry(form.d1.db, id, at(LEASE_MS), RETRY_FROM)).toBe(true)
    expect(row(id)?.next_attempt_at).toBe(at(LEASE_MS))

    const held = await storedEnquiry(form.d1.db, T0, {}, true)
    form.d1.sqlite
      .prepare('UPDATE enquiries SET lease_token = ?2, lease_until = ?3 WHERE id = ?1')
      .run(held, 'x', at(LEASE_MS))
    expect(await requeueEnquiry(form.d1.db, held, at(1_000), RELEASE_FROM)).toBe(false)
    expect(form.d1.row('SELECT status FROM enquiries WHERE id = ?1', held)).toEqual({ status: 'held' })
  })

  it('an operator’s retry while another attempt is under way answers busy, sends nothing, and the attempt’s result stands', async () => {
    const id = await pending()
    const release = holdAnswers()
    const cron = deliverDueEnquiries(env())
    await vi.waitFor(() => expect(form.posts).toHaveLength(1))
    expect(await press('retry', id)).toBe('busy')
    expect(auditActions(id)).toEqual([])
    release()
    expect(await cron).toMatchObject({ delivered: 1, leaseLost: 0 })
    expect(form.posts).toHaveLength(1)
    expect(history(id)).toEqual([expect.objectContaining({ attempt: 1, outcome: 'delivered' })])
    expect(await press('retry', id)).toBe('not-retried')
    expect(form.posts).toHaveLength(1)
    const lines = printed().lines.filter((line) => line.includes('"event":"admin"'))
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ action: 'retry', operator: TEST_OPERATOR_ID, result: 'busy' }),
      expect.objectContaining({ action: 'retry', operator: TEST_OPERATOR_ID, result: 'not-retried' }),
    ])
    expect(printed().lines.join('\n')).not.toContain(TEST_OPERATOR)
  })

  it('a release while an attempt holds the enquiry answers busy', async () => {
    const id = await storedEnquiry(form.d1.db, T0, {}, true)
    const release = holdAnswers()
    const first = press('release', id)
    await vi.waitFor(() => expect(form.posts).toHaveLength(1))
    expect(await press('release', id)).toBe('busy')
    expect(await press('retry', id)).toBe('busy')
    release()
    expect(await first).toBe('delivered')
    expect(form.posts).toHaveLength(1)
    expect(auditActions(id)).toEqual(['release'])
  })

  it('two operators pressing Retry at the same moment deliver the enquiry once: one delivered, one busy', async () => {
    const id = await pending()
    const claim = await claimEnquiry(form.d1.db, id, at(0), at(LEASE_MS))
    await recordAttempt(form.d1.db, id, claim?.token ?? '', failed(1, at(5)))
    const release = holdAnswers()
    const presses = Promise.all([press('retry', id), press('retry', id)])
    await vi.waitFor(() => expect(form.posts).toHaveLength(1))
    release()
    expect((await presses).sort()).toEqual(['busy', 'delivered'])
    expect(form.posts).toHaveLength(1)
    expect(auditActions(id)).toEqual(['retry'])
    expect(row(id)).toMatchObject({ status: 'delivered', attempts: 2, lease_token: null })
    expect(history(id)).toEqual([
      { attempt: 1, attempted_at: at(5), outcome: 'failed', cause: 'upstream_status' },
      expect.objectContaining({ attempt: 2, outcome: 'delivered', cause: null }),
    ])
  })

  it('marked handled during an attempt, it stays handled; the attempt is still in its history', async () => {
    const id = await pending()
    const claim = await claimEnquiry(form.d1.db, id, at(0), at(LEASE_MS))
    expect(await markHandled(form.d1.db, id, at(1), 'op@example.com')).toBe(true)
    expect(await recordAttempt(form.d1.db, id, claim?.token ?? '', delivered(1, at(5)))).toBe('recorded')
    expect(row(id)).toMatchObject({ status: 'handled', attempts: 1, lease_token: null, next_attempt_at: null })
    expect(history(id)).toEqual([expect.objectContaining({ attempt: 1, outcome: 'delivered' })])
  })
})

describe('the delivery history is insert-only', () => {
  it('a row already holding the attempt’s number is never replaced: the attempt goes under the next number', async () => {
    const id = await pending()
    form.d1.sqlite
      .prepare(
        "INSERT INTO enquiry_attempts (enquiry_id, attempt, attempted_at, delivery, outcome, cause) VALUES (?1, 1, ?2, 'email', 'failed', 'by_hand')",
      )
      .run(id, at(-60_000))
    const claim = await claimEnquiry(form.d1.db, id, at(0), at(LEASE_MS))
    expect(await recordAttempt(form.d1.db, id, claim?.token ?? '', delivered(1, at(5)))).toBe('renumbered')
    expect(history(id)).toEqual([
      { attempt: 1, attempted_at: at(-60_000), outcome: 'failed', cause: 'by_hand' },
      { attempt: 2, attempted_at: at(5), outcome: 'delivered', cause: null },
    ])
    expect(row(id)).toMatchObject({ status: 'delivered', attempts: 2, lease_token: null })
  })

  it('no statement the delivery runs replaces a row', async () => {
    const id = await pending()
    form.answer = async () => new Response('down', { status: 503 })
    await deliverDueEnquiries(env())
    form.answer = async () => Response.json({ success: true })
    await press('retry', id)
    expect(history(id).map((h) => h.outcome)).toEqual(['failed', 'delivered'])
    expect(form.d1.executed.filter((sql) => /\b(REPLACE|OR\s+IGNORE)\b/i.test(sql))).toEqual([])
  })
})
