// Webhooks as the Worker sends them (docs/integrations.md), and an `enquiry.erased` for each of the four ways an
// enquiry is erased. Fixture: support/webhooks.ts.
import { describe, expect, test } from 'vitest'
import { WEBHOOK_RETRY_DELAYS } from '../../app/contact/webhooks'
import type { ReceivedWebhook } from '../../scripts/webhook-receiver'
import { enquiry } from '../support/values'
import { parseHtml, textOf } from './support/html'
import { postForm, pressButton } from './support/http'
import { linkIn, type Mail } from './support/mail'
import { webhooksUnderTest } from './support/webhooks'

const { hooks, stand, worker, asOperator, send, signed, slack, press, later } = webhooksUnderTest()

test('each event arrives once with a valid signature, beside the delivery in effect; the Slack endpoint gets a message without the body', async () => {
  const values = enquiry('hooks-once', { company: 'Webhook Co 7c1', message: 'Body words that stay in the desk.' })
  const id = await send(values)
  // The form service had it as before: the webhooks are beside it.
  expect(stand.forms.from(values.email)).toHaveLength(1)
  await expect.poll(() => signed(id).length).toBe(1)
  await expect.poll(() => slack('Webhook Co 7c1').length).toBe(1)
  const [event] = signed(id) as [ReceivedWebhook]
  expect(event.verified).toBe(true)
  expect(event.status).toBe(204)
  expect(event.json).toEqual({
    type: 'enquiry.received',
    timestamp: expect.any(String),
    data: {
      id,
      receivedAt: expect.any(String),
      name: values.name,
      email: values.email,
      company: values.company,
      subject: 'devops',
      subjectLabel: 'DevOps & Cloud Automation',
      message: values.message,
      deskUrl: expect.stringMatching(new RegExp(`/admin/enquiries/${id}$`)),
    },
  })
  // The Slack message's words: tests/unit/webhooks.
  expect((slack('Webhook Co 7c1') as [ReceivedWebhook])[0].signature).toBeNull()

  // Further runs, however late, send nothing again.
  await worker.cron()
  await worker.cron(later(2 * 86_400))
  expect(hooks.receiver.received).toHaveLength(2)
  // Each endpoint has its own attempt in the enquiry's history.
  expect(
    await worker.sql(
      `SELECT e.endpoint, e.status, a.attempt, a.outcome, a.http_status AS httpStatus FROM webhook_events e
       JOIN webhook_attempts a ON a.event_id = e.id WHERE e.enquiry_id = ? ORDER BY e.endpoint`,
      id,
    ),
  ).toEqual([
    { endpoint: 'crm', status: 'delivered', attempt: 1, outcome: 'delivered', httpStatus: 204 },
    { endpoint: 'team', status: 'delivered', attempt: 1, outcome: 'delivered', httpStatus: 200 },
  ])
  // Nothing of a URL or a secret in the Worker's output.
  await worker.settled()
  const output = worker.output()
  expect(output).toContain('"event":"webhook"')
  expect(output).not.toContain(hooks.receiver.url)
  expect(output).not.toContain(`:${new URL(hooks.receiver.url).port}`)
  expect(output).not.toContain(hooks.receiver.secret.slice(6))
})

test('a receiver failing twice, then recovering, gets it once more with the same id; the history shows each attempt', async () => {
  hooks.receiver.failNext(2, 503)
  const values = enquiry('hooks-retry')
  const id = await send(values)
  await expect.poll(() => signed(id).length).toBe(1)
  const crmEvent = () => worker.sql("SELECT attempts FROM webhook_events WHERE enquiry_id = ? AND endpoint = 'crm'", id)
  await expect.poll(crmEvent).toEqual([{ attempts: 1 }])
  // Not due yet: a run now sends nothing.
  await worker.cron()
  expect(signed(id)).toHaveLength(1)
  // Due after the first delay, then after the second.
  const first = WEBHOOK_RETRY_DELAYS[0] as number
  const second = WEBHOOK_RETRY_DELAYS[1] as number
  await worker.cron(later(first + 5))
  expect(signed(id)).toHaveLength(2)
  await worker.cron(later(first + 5 + 30))
  expect(signed(id)).toHaveLength(2)
  await worker.cron(later(first + second + 10))
  expect(signed(id)).toHaveLength(3)
  await worker.cron(later(86_400))
  const deliveries = signed(id)
  expect(deliveries.map((event) => event.status)).toEqual([503, 503, 204])
  expect(new Set(deliveries.map((event) => event.id)).size).toBe(1)
  expect(deliveries.every((event) => event.verified)).toBe(true)
  expect(
    await worker.sql(
      `SELECT a.attempt, a.outcome, a.cause, a.http_status AS httpStatus FROM webhook_attempts a
       JOIN webhook_events e ON e.id = a.event_id WHERE e.enquiry_id = ? AND e.endpoint = 'crm' ORDER BY a.attempt`,
      id,
    ),
  ).toEqual([
    { attempt: 1, outcome: 'failed', cause: 'receiver_status', httpStatus: 503 },
    { attempt: 2, outcome: 'failed', cause: 'receiver_status', httpStatus: 503 },
    { attempt: 3, outcome: 'delivered', cause: null, httpStatus: 204 },
  ])

  // The enquiry's page shows each endpoint's attempts, and Replay.
  const page = parseHtml(await (await worker.fetch(`/admin/enquiries/${id}`, { headers: await asOperator() })).text())
  const crm = page.querySelector('[data-endpoint="crm"]')
  expect(textOf(crm?.querySelector('h3'))).toBe(`crm (${new URL(hooks.receiver.url).host})`)
  expect(
    [...(crm?.querySelectorAll('tbody tr') ?? [])].map((row) => textOf(row.querySelector('td:nth-child(5)'))),
  ).toEqual(['receiver_status', 'receiver_status', '—'])
  expect(textOf(page.querySelector('[data-endpoint="team"] h3'))).toBe(
    `team (${new URL(hooks.receiver.slackUrl).host}, Slack)`,
  )
  expect(page.documentElement.outerHTML).not.toContain(hooks.receiver.url)

  // Replay, as its button posts it: the same id once more, and a line in the audit trail.
  const replayed = await pressButton(worker, page, 'Replay to crm', {}, { headers: await asOperator() })
  expect(replayed.status).toBe(303)
  expect(replayed.headers.get('location')).toBe(`/admin/enquiries/${id}?flash=replayed`)
  expect(signed(id).map((event) => event.id)).toEqual(Array(4).fill(deliveries[0]?.id))
  expect(signed(id).at(-1)?.verified).toBe(true)
  const after = parseHtml(await (await worker.fetch(`/admin/enquiries/${id}`, { headers: await asOperator() })).text())
  expect(textOf(after.body)).toContain('Replayed a webhook')
  await worker.logged((line) => line.event === 'admin' && line.action === 'replay' && line.result === 'replayed')

  // A replay that finds the event under way is busy, sends nothing, and leaves no line.
  await worker.sql(
    "UPDATE webhook_events SET lease_token = 'other', next_attempt_at = ? WHERE enquiry_id = ? AND endpoint = 'crm'",
    later(3600).toISOString(),
    id,
  )
  const busy = await pressButton(worker, after, 'Replay to crm', {}, { headers: await asOperator() })
  expect(busy.headers.get('location')).toBe(`/admin/enquiries/${id}?flash=busy`)
  expect(signed(id)).toHaveLength(4)
  expect(await worker.sql("SELECT action FROM audit_log WHERE enquiry_id = ? AND action = 'replay'", id)).toHaveLength(
    1,
  )
})

test('a held enquiry sends nothing until it is released; then its enquiry.received goes once', async () => {
  const values = enquiry('hooks-held')
  const id = await send(values, { held: true })
  await worker.cron()
  await worker.cron(later(3600))
  await worker.settled()
  expect(hooks.receiver.received).toEqual([])
  expect(await worker.sql('SELECT * FROM webhook_events WHERE enquiry_id = ?', id)).toEqual([])

  expect(await press('release', { id })).toBe('delivered')
  await expect.poll(() => signed(id).length).toBe(1)
  expect(signed(id)[0]?.verified).toBe(true)
  await worker.cron(later(3600))
  expect(signed(id)).toHaveLength(1)
  expect(slack(id)).toHaveLength(1)
})

test('the desk’s set-up lists each endpoint by name and host, never its URL or secret', async () => {
  const page = parseHtml(await (await worker.fetch('/admin/setup', { headers: await asOperator() })).text())
  const host = new URL(hooks.receiver.url).host
  expect(textOf(page.querySelector('[data-testid="setup-webhooks"]'))).toBe(
    `crm → ${host} (signed JSON); team → ${host} (Slack, message body off)`,
  )
  expect(page.querySelector('[data-testid="setup-webhooks-refused"]')).toBeNull()
  const html = page.documentElement.outerHTML
  expect(html).not.toContain(hooks.receiver.url)
  expect(html).not.toContain(hooks.receiver.secret.slice(6))
})

test('one endpoint failing repeatedly raises the delivery alert, naming the endpoint and never its URL', async () => {
  hooks.receiver.failNext(100, 500)
  const ids: string[] = []
  for (const label of ['hooks-alert-1', 'hooks-alert-2', 'hooks-alert-3']) {
    const id = await send(enquiry(label))
    await expect.poll(() => signed(id).length).toBe(1)
    ids.push(id)
  }
  await worker.cron()
  const alerts = () => worker.mails().filter((mail) => mail.subject.startsWith('Webhook failing'))
  await expect.poll(() => alerts().length).toBe(1)
  const [alert] = alerts() as [Mail]
  expect(alert.subject).toContain('crm')
  expect(alert.text).toContain('receiver_status')
  expect(alert.text).not.toContain(hooks.receiver.url)
  expect(alert.text).not.toContain(hooks.receiver.secret)
  // At most one an hour for the endpoint.
  await worker.cron()
  expect(alerts()).toHaveLength(1)
  // The Slack endpoint, which answers, is not named.
  expect(alert.subject).not.toContain('team')
})

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
    const link = linkIn(receipt(), '/withdraw')
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
