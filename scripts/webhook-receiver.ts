// `npm run webhook-receiver`: a webhook receiver on 127.0.0.1 for trying the site's webhooks
// (docs/integrations.md). It verifies each signed POST with the `standardwebhooks` package (the
// Standard Webhooks reference library, not the site's own code), prints each event, and prints the
// lines to put in .dev.vars so that `npm start` delivers to it.
//
//   npm run webhook-receiver [-- --port <port>] [-- --secret whsec_…]
//
// Default port 8798; a fresh secret each run unless --secret gives one. POST /hooks takes signed
// events (204 when the signature holds, 400 when not); POST /slack takes the Slack format's
// messages (unsigned, as Slack's incoming webhooks take them). The tests start the same receiver
// as their stand-in (`startWebhookReceiver`), and can make it fail for a while (`failNext`).
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { Webhook } from 'standardwebhooks'

export const DEFAULT_RECEIVER_PORT = 8798

export interface ReceivedWebhook {
  path: string
  /** The `webhook-id`, `webhook-timestamp` and `webhook-signature` headers as sent. */
  id: string | null
  timestamp: string | null
  signature: string | null
  /** Null on /slack. */
  verified: boolean | null
  body: string
  json: unknown
  /** What the receiver answered. */
  status: number
}

export interface WebhookReceiver {
  /** The signed events' address, `http://127.0.0.1:<port>/hooks`. */
  url: string
  /** The Slack format's address on the same receiver. */
  slackUrl: string
  secret: string
  received: ReceivedWebhook[]
  /** The next `count` requests to `path` (default /hooks) are answered `status` (default 503), then it recovers. */
  failNext(count: number, status?: number, path?: string): void
  forget(): void
  close(): Promise<void>
}

export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

const header = (request: IncomingMessage, name: string) => {
  const value = request.headers[name]
  return typeof value === 'string' ? value : null
}

export async function startWebhookReceiver(
  options: { port?: number; secret?: string; onEvent?: (event: ReceivedWebhook) => void } = {},
): Promise<WebhookReceiver> {
  const secret = options.secret ?? newSecret()
  const verifier = new Webhook(secret)
  const received: ReceivedWebhook[] = []
  let failures = { count: 0, status: 503, path: '/hooks' }
  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/'
    if (request.method !== 'POST' || (path !== '/hooks' && path !== '/slack')) {
      response.writeHead(404).end()
      return
    }
    const body = await readBody(request)
    const id = header(request, 'webhook-id')
    const timestamp = header(request, 'webhook-timestamp')
    const signature = header(request, 'webhook-signature')
    let verified: boolean | null = null
    if (path === '/hooks') {
      try {
        verifier.verify(body, {
          'webhook-id': id ?? '',
          'webhook-timestamp': timestamp ?? '',
          'webhook-signature': signature ?? '',
        })
        verified = true
      } catch {
        verified = false
      }
    }
    let json: unknown = null
    try {
      json = JSON.parse(body)
    } catch {}
    let status = verified === false ? 400 : path === '/slack' ? 200 : 204
    if (failures.count > 0 && failures.path === path) {
      failures.count--
      status = failures.status
    }
    const event: ReceivedWebhook = { path, id, timestamp, signature, verified, body, json, status }
    received.push(event)
    options.onEvent?.(event)
    response.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : undefined)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', resolve)
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: `${origin}/hooks`,
    slackUrl: `${origin}/slack`,
    secret,
    received,
    failNext(count, status = 503, path = '/hooks') {
      failures = { count, status, path }
    },
    forget() {
      received.length = 0
      failures = { count: 0, status: 503, path: '/hooks' }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** One line an event: what a person trying the webhooks wants to see. */
export function describeEvent(event: ReceivedWebhook): string {
  const payload = event.json as { type?: string; data?: { id?: string }; text?: string } | null
  if (event.path === '/slack') return `slack message: ${JSON.stringify(payload?.text ?? event.body)}`
  if (!event.verified) return `REFUSED ${event.id ?? '(no webhook-id)'}: the signature does not verify`
  return `${payload?.type ?? '?'} ${event.id} enquiry ${payload?.data?.id ?? '?'} (signature verified)`
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: String(DEFAULT_RECEIVER_PORT) }, secret: { type: 'string' } },
  })
  const receiver = await startWebhookReceiver({
    port: Number(values.port),
    secret: values.secret,
    onEvent: (event) => {
      console.log(describeEvent(event))
      if (event.verified) console.log(`  ${event.body}`)
    },
  })
  console.log(`Webhook receiver on ${receiver.url}, verifying with standardwebhooks.`)
  console.log('Put these lines in .dev.vars, then run `npm start` (and send the contact form):\n')
  console.log(`WEBHOOK_ENDPOINTS=local=${receiver.url}`)
  console.log(`WEBHOOK_SECRETS=local=${receiver.secret}`)
  console.log('\nWaiting for events; Ctrl-C stops.')
  const stop = () => receiver.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
