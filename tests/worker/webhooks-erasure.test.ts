// An `enquiry.erased` webhook for each of the four ways an enquiry is erased. Fixture: support/webhooks.ts.
import { describe, expect, test } from 'vitest'
import { enquiry } from '../support/values'
import { postForm } from './support/http'
import type { Mail } from './support/site'
import { webhooksUnderTest } from './support/webhooks'

const { hooks, worker, send, signed, slack, press, later } = webhooksUnderTest()

describe('erasure by each of the four routes sends enquiry.erased, with the id only', () => {
  /** Sends one, waits for its enquiry.received at both endpoints. */
  async function delivered(label: string, values = enquiry(label)) {
    const id = await send(values)
    await expect.poll(() => signed(id).length).toBe(1)
    await expect.poll(() => slack(id).length + slack(values.company).length).toBeGreaterThan(0)
    return { id, values }
  }

  async function expectErased(id: string) {
    await worker.cron()
    const erased = signed(id, 'enquiry.erased')
    expect(erased).toHaveLength(1)
    expect(erased[0]?.verified).toBe(true)
    expect(erased[0]?.json).toEqual({ type: 'enquiry.erased', timestamp: expect.any(String), data: { id } })
    expect(erased[0]?.id).not.toBe(signed(id)[0]?.id)
    expect(slack(`Enquiry ${id} was erased`)).toHaveLength(1)
    // Once: later runs send it no more.
    await worker.cron(later(86_400))
    expect(signed(id, 'enquiry.erased')).toHaveLength(1)
    // Nothing of the enquiry is left but the erasure's own event.
    expect(await worker.sql('SELECT type FROM webhook_events WHERE enquiry_id = ? ORDER BY endpoint', id)).toEqual([
      { type: 'enquiry.erased' },
      { type: 'enquiry.erased' },
    ])
  }

  test('by an operator', async () => {
    const { id } = await delivered('hooks-erase')
    expect(await press('erase', { id, confirm: id })).toBe('erased')
    await expectErased(id)
  })

  test('by a person’s request', async () => {
    const { id, values } = await delivered('hooks-person')
    expect(await press('erase-person', { email: values.email, ids: id, confirm: 'person' })).toBe('person-erased')
    await expectErased(id)
  })

  test('by withdrawal (the receipt’s link)', async () => {
    const { id, values } = await delivered('hooks-withdraw')
    const receipt = (): Mail | undefined => worker.mails().find((mail) => mail.to.includes(values.email))
    await expect.poll(() => receipt()).toBeDefined()
    const link = new URL(receipt()?.text.match(/https?:\/\/\S+\/withdraw\?\S+/)?.[0] ?? '')
    const post = await postForm(worker, '/api/withdraw', Object.fromEntries(link.searchParams))
    expect(post.headers.get('location')).toBe('/withdraw?result=erased')
    await expectErased(id)
  })

  test('by retention, in the same scheduled run that erases it', async () => {
    const { id } = await delivered('hooks-retention')
    const longAgo = new Date(Date.now() - 731 * 86_400_000).toISOString()
    await worker.exec(`UPDATE enquiries SET received_at = '${longAgo}' WHERE id = '${id}'`)
    await expectErased(id)
    expect(await worker.sql('SELECT id FROM enquiries WHERE id = ?', id)).toEqual([])
  })

  test('an enquiry.received still being retried is followed by enquiry.erased; one never attempted is dropped, and its endpoint hears nothing', async () => {
    hooks.receiver.failNext(100, 503)
    const id = await send(enquiry('hooks-pending-erase'))
    await expect.poll(() => signed(id).length).toBe(1)
    await expect.poll(() => slack(id).length).toBe(1)
    // An event whose first attempt never began (an instance cut off between queuing and sending).
    await worker.exec(
      `INSERT INTO webhook_events (id, endpoint, type, enquiry_id, created_at, status, attempts, next_attempt_at)
       VALUES ('msg_${'0'.repeat(32)}', 'later', 'enquiry.received', '${id}', '2026-01-01T00:00:00.000Z', 'pending', 0, '2999-01-01T00:00:00.000Z')`,
    )
    hooks.receiver.forget()
    expect(await press('erase', { id, confirm: id })).toBe('erased')
    await worker.cron()
    expect(signed(id, 'enquiry.erased')).toHaveLength(1)
    expect(signed(id, 'enquiry.erased')[0]?.verified).toBe(true)
    // The failed received is no longer retried: nothing of the enquiry is left to send.
    await worker.cron(later(86_400))
    expect(signed(id)).toEqual([])
    expect(
      await worker.sql('SELECT endpoint, type FROM webhook_events WHERE enquiry_id = ? ORDER BY endpoint', id),
    ).toEqual([
      { endpoint: 'crm', type: 'enquiry.erased' },
      { endpoint: 'team', type: 'enquiry.erased' },
    ])
  })

  test('an enquiry erased while held sent nothing, so nothing is sent about its erasure', async () => {
    const id = await send(enquiry('hooks-held-erase'), { held: true })
    expect(await press('erase', { id, confirm: id })).toBe('erased')
    await worker.cron()
    await worker.settled()
    expect(hooks.receiver.received).toEqual([])
  })
})
