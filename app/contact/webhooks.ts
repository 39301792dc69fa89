/** Webhooks' rules (docs/integrations.md); plain Node loads it, so no TypeScript-only constructs. */
import type { Enquiry } from '~/ledger'
import { CONTACT_FIELDS, ENQUIRY_FIELDS, type FieldKind } from '../ledger/fields.ts'

export const WEBHOOK_EVENT_TYPES = [
  'enquiry.received',
  'enquiry.erased',
  'subscriber.confirmed',
  'subscriber.left',
  'subscriber.erased',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** Built from the early-access entry when sent; an erasure carries the id only. */
export const isSubscriberEvent = (type: string): boolean => type.startsWith('subscriber.')

/** What a subscriber event carries of its entry; never the signup time's network or anything else. */
export interface SubscriberData {
  id: string
  email: string
  confirmedAt: string | null
  consentVersion: string
  leftAt: string | null
}

/** Past the 24 h a receiver may be down: Standard Webhooks' schedule less what a minutely cron cannot keep. */
export const WEBHOOK_RETRY_DELAYS: readonly number[] = [60, 300, 1800, 7200, 18_000, 36_000, 36_000]

/** Null: that attempt was the last. */
export function webhookRetryDelay(attempt: number): number | null {
  return WEBHOOK_RETRY_DELAYS[attempt - 1] ?? null
}

/** Longer than an attempt's 10 s time-out, as the enquiries' lease is. */
export const WEBHOOK_TIMEOUT_MS = 10_000

/** A `whsec_` secret's key: at least 24 bytes (192 bits), what check:config and the Worker ask. */
export const SECRET_MIN_BYTES = 24
const SECRET_PREFIX = 'whsec_'

export type WebhookFormat = 'standard' | 'slack'

export interface WebhookEndpoint {
  name: string
  /** Never logged, stored or shown; `host` is. */
  url: string
  host: string
  format: WebhookFormat
  secret: string | null
}

export interface WebhookVars {
  WEBHOOK_ENDPOINTS?: string
  WEBHOOK_SECRETS?: string
  WEBHOOK_SLACK?: string
  WEBHOOK_SLACK_BODY?: string
}

export interface WebhookSetup {
  endpoints: WebhookEndpoint[]
  /** One sentence each, naming variables and endpoints, never a URL, a host or a secret: they reach logs. */
  problems: string[]
  slackBody: boolean
}

const NAME = /^[a-z0-9][a-z0-9-]{0,31}$/

/** `name=value` pairs separated by white space (a URL holds none); names in order, once each. */
function pairs(raw: string | undefined, variable: string, problems: string[]): Map<string, string> {
  const found = new Map<string, string>()
  for (const item of (raw ?? '').split(/\s+/).filter(Boolean)) {
    const at = item.indexOf('=')
    const name = at > 0 ? item.slice(0, at) : ''
    if (!NAME.test(name)) {
      problems.push(
        `${variable}: each entry is name=value, the name 1–32 of a–z, 0–9 and "-" (entry ${found.size + 1} is not)`,
      )
      continue
    }
    if (found.has(name)) problems.push(`${variable}: "${name}" is named twice`)
    else found.set(name, item.slice(at + 1))
  }
  return found
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/

function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || IPV4.test(hostname)
}

/** localhost, a single label, or a suffix no public name has (RFC 6761, 6762, 8375 and ICANN's `.internal`). */
function isLocalName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '').toLowerCase()
  if (!name.includes('.')) return true
  return /\.(localhost|local|localdomain|internal|lan|home\.arpa|test|invalid|example)$/.test(name)
}

const isLoopback = (hostname: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(hostname)

/** `production` (check:config, go-live): https to a public name only; elsewhere http to loopback too. Null: usable. */
export function urlProblem(raw: string, production: boolean): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'is not a URL'
  }
  if (url.username || url.password) return 'carries a user name or password: put a token in the path'
  if (production) {
    if (url.protocol !== 'https:') return 'is not https'
    if (isIpLiteral(url.hostname)) return "is an IP address: use the receiver's public name"
    if (isLocalName(url.hostname)) return "is a local name: use the receiver's public name"
    return null
  }
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return null
  return 'is not https (http only to 127.0.0.1, localhost or [::1])'
}

export function secretProblem(secret: string): string | null {
  if (!secret.startsWith(SECRET_PREFIX)) return 'does not start with whsec_'
  const key = secretKey(secret)
  if (!key) return 'is not whsec_ followed by base64'
  if (key.byteLength < SECRET_MIN_BYTES) return `holds ${key.byteLength} bytes: at least ${SECRET_MIN_BYTES} are needed`
  return null
}

function secretKey(secret: string): Uint8Array<ArrayBuffer> | null {
  const encoded = secret.slice(SECRET_PREFIX.length)
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 === 1) return null
  try {
    return Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}

const ON = new Set(['on', 'true', 'yes', '1'])

/** An endpoint with a problem is left out and the problem named; Slack webhooks need no secret. */
export function webhookSetup(vars: WebhookVars, options: { production?: boolean } = {}): WebhookSetup {
  const problems: string[] = []
  const urls = pairs(vars.WEBHOOK_ENDPOINTS, 'WEBHOOK_ENDPOINTS', problems)
  const secrets = pairs(vars.WEBHOOK_SECRETS, 'WEBHOOK_SECRETS', problems)
  const slack = new Set(
    (vars.WEBHOOK_SLACK ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  )
  for (const name of slack)
    if (!urls.has(name)) problems.push(`WEBHOOK_SLACK names "${name}", which WEBHOOK_ENDPOINTS does not`)
  for (const name of secrets.keys())
    if (!urls.has(name)) problems.push(`WEBHOOK_SECRETS names "${name}", which WEBHOOK_ENDPOINTS does not`)
  const endpoints: WebhookEndpoint[] = []
  for (const [name, url] of urls) {
    const wrong = urlProblem(url, options.production === true)
    if (wrong) {
      problems.push(`WEBHOOK_ENDPOINTS: "${name}" ${wrong}`)
      continue
    }
    const format: WebhookFormat = slack.has(name) ? 'slack' : 'standard'
    const secret = secrets.get(name) ?? null
    if (format === 'standard') {
      const bad = secret === null ? 'is missing' : secretProblem(secret)
      if (bad) {
        problems.push(`WEBHOOK_SECRETS: the secret for "${name}" ${bad}`)
        continue
      }
    }
    endpoints.push({ name, url, host: new URL(url).host, format, secret: format === 'standard' ? secret : null })
  }
  return { endpoints, problems, slackBody: ON.has((vars.WEBHOOK_SLACK_BODY ?? '').trim().toLowerCase()) }
}

/** `msg_` and 32 hex digits (128 random bits), as the migration's trigger makes them too. */
export function newEventId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return `msg_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

/** Standard Webhooks, "Signature scheme" (https://www.standardwebhooks.com). */
export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = secretKey(secret)
  if (!key) throw new Error('not a whsec_ secret')
  const hmac = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = await crypto.subtle.sign('HMAC', hmac, new TextEncoder().encode(`${id}.${timestamp}.${body}`))
  let binary = ''
  for (const byte of new Uint8Array(mac)) binary += String.fromCharCode(byte)
  return `v1,${btoa(binary)}`
}

export interface WebhookEvent {
  id: string
  type: WebhookEventType
  /** The enquiry's id, or the early-access entry's for a `subscriber.` event. */
  enquiryId: string
  /** When it was queued: the payload's `timestamp`, the same on every retry. */
  createdAt: string
}

export function deskLink(siteUrl: string, enquiryId: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/admin/enquiries/${encodeURIComponent(enquiryId)}`
}

/** Each field of the registry by its name, in order; a choice's words beside it (`subjectLabel`). */
export function payloadFields(enquiry: Enquiry): Record<string, string> {
  return Object.fromEntries(
    CONTACT_FIELDS.flatMap((field) => {
      const kind: FieldKind = ENQUIRY_FIELDS[field].kind
      return kind === 'choice'
        ? [
            [field, enquiry[field]],
            [`${field}Label`, enquiry.subjectLabel],
          ]
        : [[field, enquiry[field]]]
    }),
  )
}

/** The caps are the form's: docs/webhook-payload.schema.json. A subscriber event is its entry, or its id once erased. */
export function webhookPayload(
  event: WebhookEvent,
  enquiry: Enquiry | null,
  siteUrl: string,
  subscriber: SubscriberData | null = null,
): string {
  const data = subscriber
    ? subscriber
    : event.type !== 'enquiry.received' || !enquiry
      ? { id: event.enquiryId }
      : {
          id: enquiry.id,
          receivedAt: enquiry.receivedAt,
          ...payloadFields(enquiry),
          deskUrl: deskLink(siteUrl, event.enquiryId),
        }
  return JSON.stringify({ type: event.type, timestamp: event.createdAt, data })
}

/** Slack never hears a subscriber's address: only that someone came or went. */
const SUBSCRIBER_SLACK: Record<string, string> = {
  'subscriber.confirmed': 'Someone signed up for early access updates.',
  'subscriber.left': 'Someone left the early access list.',
  'subscriber.erased': 'An early access entry was erased on request. Messages here never named it.',
}

/** Slack's mrkdwn: these three are its control characters (api.slack.com, "Escaping text"). */
function slackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** The message only with WEBHOOK_SLACK_BODY on; an erasure asks the channel to delete it (no webhook can). */
export function slackMessage(
  event: WebhookEvent,
  enquiry: Enquiry | null,
  options: { siteUrl: string; body: boolean },
): string {
  const said = SUBSCRIBER_SLACK[event.type]
  if (said) return JSON.stringify({ text: said })
  const link = deskLink(options.siteUrl, event.enquiryId)
  if (event.type === 'enquiry.erased' || !enquiry)
    return JSON.stringify({
      text: `Enquiry ${event.enquiryId} was erased. Delete the message about it from this channel.`,
    })
  const lines = [
    `*New enquiry: ${slackText(enquiry.subjectLabel)}*`,
    `Company: ${slackText(enquiry.company || '(none given)')}`,
    `Received: ${enquiry.receivedAt}`,
    `<${link}|Open it in the desk>`,
  ]
  if (options.body) lines.push('', slackText(enquiry.message))
  return JSON.stringify({ text: lines.join('\n') })
}

/** By name and host, never the URL. */
export function webhookSetupLines(setup: WebhookSetup): { id: string; label: string; value: string }[] {
  const listed = setup.endpoints.map(
    (endpoint) =>
      `${endpoint.name} → ${endpoint.host} (${endpoint.format === 'slack' ? `Slack, message body ${setup.slackBody ? 'on' : 'off'}` : 'signed JSON'})`,
  )
  const lines = [
    {
      id: 'setup-webhooks',
      label: 'Webhooks',
      value: listed.length ? listed.join('; ') : 'none (WEBHOOK_ENDPOINTS sets them)',
    },
  ]
  if (setup.problems.length)
    lines.push({ id: 'setup-webhooks-refused', label: 'Webhooks refused', value: setup.problems.join('; ') })
  return lines
}
