// The webhooks' fixture: `npm run webhook-receiver`'s receiver (it verifies each signature), a Worker sending
// to it and to a Slack endpoint, and what the tests read of both. Call it once, at a file's top level.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest'
import { startWebhookReceiver, type WebhookReceiver } from '../../../scripts/webhook-receiver'
import type { Enquiry } from '../../support/values'
import { siteUnderTest, standInsForFile } from './fixtures'
import { postEnquiry, postForm, TYPED } from './http'

/** `vars`: more settings for the file's Worker. */
export function webhooksUnderTest(vars: Record<string, string> = {}) {
  const hooks = { receiver: undefined as unknown as WebhookReceiver }
  beforeAll(async () => {
    hooks.receiver = await startWebhookReceiver()
  })
  beforeEach(() => hooks.receiver.forget())
  afterAll(() => hooks.receiver.close())

  const RECEIPT_FROM = 'hello@aksharalabs.in'
  const stand = standInsForFile()
  const worker = siteUnderTest(() => ({
    vars: stand.turnstile({
      WEBHOOK_ENDPOINTS: `crm=${hooks.receiver.url} team=${hooks.receiver.slackUrl}`,
      WEBHOOK_SECRETS: `crm=${hooks.receiver.secret}`,
      WEBHOOK_SLACK: 'team',
      CONTACT_EMAIL_FROM: 'website@aksharalabs.in',
      // The enquiries' own retries wait an hour: only first attempts of them happen here.
      CONTACT_RETRY_DELAYS: '3600',
      ALERT_AFTER_FAILURES: '3',
      RECEIPT_FROM,
      RECEIPT_LINK_SECRET: 'webhooks-test-receipt-secret-0123456789abcdef',
      ...vars,
    }),
  }))

  const asOperator = async () => ({ 'Cf-Access-Jwt-Assertion': await stand.keys.sign({ expiresIn: 3600 }), ...TYPED })

  const send = (values: Enquiry, options: { held?: boolean } = {}) => postEnquiry(worker, values, options)

  const signed = (id: string, type = 'enquiry.received') =>
    hooks.receiver.received.filter(
      (event) =>
        event.path === '/hooks' &&
        (event.json as { type?: string; data?: { id?: string } })?.type === type &&
        (event.json as { data?: { id?: string } })?.data?.id === id,
    )
  const slack = (text: string) =>
    hooks.receiver.received.filter(
      (event) => event.path === '/slack' && String((event.json as { text?: string })?.text).includes(text),
    )

  async function press(action: string, fields: Record<string, string>): Promise<string | null> {
    const answer = await postForm(worker, '/admin/actions', { action, ...fields }, { headers: await asOperator() })
    expect(answer.status).toBe(303)
    return new URL(answer.headers.get('location') ?? '', worker.origin).searchParams.get('flash')
  }

  const later = (seconds: number) => new Date(Date.now() + seconds * 1000)

  return { hooks, RECEIPT_FROM, stand, worker, asOperator, send, signed, slack, press, later }
}
