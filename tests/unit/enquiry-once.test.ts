// @vitest-environment node
// One enquiry per form fill and one delivery per enquiry: the idempotency key, double clicks, overlapping runs.
import { describe, expect, it, vi } from 'vitest'
import { deliverDueEnquiries } from '~/contact/attempts.server'
import { newIdempotencyKey } from '~/contact/fields'
import { claimEnquiry, LEASE_MS } from '~/ledger/index.server'
import { FakeEmailMessage } from '../support/fake-env'
import {
  allRows,
  enquiryInput,
  env,
  form,
  later,
  outcomeAnswer,
  printed,
  type Row,
  request,
  rowFor,
  setUpSubmitHarness,
  submit,
} from '../support/submit-harness'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

setUpSubmitHarness()

describe('one enquiry per form fill (the idempotency key)', () => {
  it('stores one row and delivers once for two posts with the same key; the repeat gets the same answer', async () => {
    const e = env()
    const data = enquiryInput()
    const first = await submit(data, e)
    const second = await submit({ ...data }, e)
    expect(first).toMatchObject({ kind: 'stored', repeat: false })
    expect(second).toEqual({ kind: 'stored', enquiryId: first.kind === 'stored' ? first.enquiryId : '?', repeat: true })
    expect(allRows()).toHaveLength(1)
    expect(form.fetchMock).toHaveBeenCalledTimes(1)
    expect(printed().json.filter((line) => line.outcome === 'repeat')).toHaveLength(1)
    expect(outcomeAnswer(second, request()).status).toBe(200)
  })

  it('stores one row for two posts with the same key that arrive at once (a double click)', async () => {
    const e = env()
    const data = enquiryInput()
    const outcomes = await Promise.all([submit(data, e), submit({ ...data }, e)])
    expect(outcomes.map((o) => o.kind === 'stored' && o.repeat).sort()).toEqual([false, true])
    expect(allRows()).toHaveLength(1)
    expect(form.fetchMock).toHaveBeenCalledTimes(1)
  })

  it('does not deliver again on a resend after a failed first attempt', async () => {
    form.answer = () => new Response('down', { status: 502 })
    const e = env()
    const data = enquiryInput()
    await submit(data, e)
    expect(await submit(data, e)).toMatchObject({ kind: 'stored', repeat: true })
    expect(form.fetchMock).toHaveBeenCalledTimes(1)
    expect(allRows()).toEqual([expect.objectContaining({ status: 'pending', attempts: 1 })])
  })

  it('stores two rows for two different keys', async () => {
    const e = env()
    const data = enquiryInput()
    await submit(data, e)
    await submit({ ...data, enquiry_key: newIdempotencyKey() }, e)
    expect(allRows()).toHaveLength(2)
    expect(form.fetchMock).toHaveBeenCalledTimes(2)
  })

  it('stores a post without a key under a key of its own, once per post', async () => {
    const e = env()
    const data = enquiryInput({ enquiry_key: undefined })
    expect(data.enquiry_key).toBeUndefined()
    for (const _ of [1, 2]) expect(await submit(data, e)).toMatchObject({ kind: 'stored', repeat: false })
    const rows = allRows()
    expect(rows.map((row) => row.idempotency_key)).toEqual(rows.map((row) => `server-${row.id}`))
    expect(rows).toHaveLength(2)
  })
})

describe('a delivered enquiry is never sent again', () => {
  it('is not claimed by a run even when someone makes it due again', async () => {
    const e = env()
    const data = enquiryInput()
    await submit(data, e)
    const row = rowFor(data.email) as Row
    form.d1.sqlite.prepare("UPDATE enquiries SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").run(row.id)

    expect(await deliverDueEnquiries(e, { now: later(60_000) })).toMatchObject({ due: 0, delivered: 0 })
    const now = new Date().toISOString()
    expect(await claimEnquiry(form.d1.db, row.id, now, new Date(Date.now() + LEASE_MS).toISOString())).toBeNull()
    expect(form.fetchMock).toHaveBeenCalledTimes(1)
    expect(rowFor(data.email)).toMatchObject({ status: 'delivered', attempts: 1 })
  })

  it('is sent once when two scheduled runs overlap', async () => {
    form.answer = () => new Response('down', { status: 500 })
    const e = env()
    const data = enquiryInput()
    await submit(data, e)
    form.answer = () => Response.json({ success: true })
    const runs = await Promise.all([1, 2].map(() => deliverDueEnquiries(e, { now: later(61_000) })))
    expect(runs.reduce((n, run) => n + run.delivered, 0)).toBe(1)
    expect(form.fetchMock).toHaveBeenCalledTimes(2)
    expect(rowFor(data.email)).toMatchObject({ status: 'delivered', attempts: 2 })
  })
})
