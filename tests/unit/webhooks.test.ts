// @vitest-environment node
// The webhooks' rules: signature, retry schedule, configuration, formats and the endpoint alert.
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv2020 from 'ajv/dist/2020'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { BYTE_LIMITS, LIMITS } from '~/contact/schema'
import {
  newEventId,
  SECRET_MIN_BYTES,
  secretProblem,
  signWebhook,
  slackMessage,
  WEBHOOK_RETRY_DELAYS,
  type WebhookEvent,
  webhookPayload,
  webhookRetryDelay,
  webhookSetup,
} from '~/contact/webhooks'
import { SUBJECT_VALUES } from '~/content/subjects'
import type { Enquiry } from '~/ledger'
import { EMPTY_VALUES } from '~/ledger'
import { endpointStreaks, webhookAlertMessage } from '~/notices/alert'
import { scratchDir } from '../support/scratch'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const SITE = 'https://aksharalabs.in'

const enquiry: Enquiry = {
  ...EMPTY_VALUES,
  id: '20261126-abcdef',
  receivedAt: '2026-11-26T10:00:00.000Z',
  name: 'Asha <Rao> & Co',
  email: 'asha@example.org',
  company: 'Rao & <Sons>',
  subject: 'devops',
  subjectLabel: 'DevOps & Cloud Automation',
  message: 'Please call me about our pipelines.',
}
const createdAt = '2026-11-26T10:00:01.000Z'
const received: WebhookEvent = { id: newEventId(), type: 'enquiry.received', enquiryId: enquiry.id, createdAt }
const erased: WebhookEvent = { ...received, id: newEventId(), type: 'enquiry.erased' }

describe('the signature', () => {
  it('verifies with the standardwebhooks package, and a changed body, id or secret does not', async () => {
    const body = webhookPayload(received, enquiry, SITE)
    const timestamp = Math.floor(Date.now() / 1000)
    const signature = await signWebhook(SECRET, received.id, timestamp, body)
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
    const headers = {
      'webhook-id': received.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    }
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body))
    expect(new Webhook(SECRET).sign(received.id, new Date(timestamp * 1000), body)).toBe(signature)
    expect(() => new Webhook(SECRET).verify(body.replace('pipelines', 'pipes'), headers)).toThrow()
    expect(() => new Webhook(SECRET).verify(body, { ...headers, 'webhook-id': newEventId() })).toThrow()
    expect(() => new Webhook('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').verify(body, headers)).toThrow()
  })

  it('event ids are msg_ and 32 hex digits, a new one each time', () => {
    const ids = new Set(Array.from({ length: 100 }, newEventId))
    expect(ids.size).toBe(100)
    for (const id of ids) expect(id).toMatch(/^msg_[0-9a-f]{32}$/)
  })
})

describe('the retry schedule', () => {
  it('retries for at least 24 hours, then gives up', () => {
    const total = WEBHOOK_RETRY_DELAYS.reduce((sum, delay) => sum + delay, 0)
    expect(total).toBe(99_360)
    for (let i = 1; i < WEBHOOK_RETRY_DELAYS.length; i++)
      expect(WEBHOOK_RETRY_DELAYS[i]).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS[i - 1] as number)
    expect(webhookRetryDelay(1)).toBe(60)
    expect(webhookRetryDelay(7)).toBe(36_000)
    expect(webhookRetryDelay(8)).toBeNull()
  })
})

describe('configuration', () => {
  const vars = (endpoints: string, secrets = '', slack = '') => ({
    ...{ WEBHOOK_ENDPOINTS: endpoints, WEBHOOK_SECRETS: secrets, WEBHOOK_SLACK: slack },
  })

  it('reads several endpoints, each with its secret; a Slack endpoint needs none', () => {
    const setup = webhookSetup(
      vars(
        'crm=https://crm.acme.com/hooks/t0k3n team=https://hooks.slack.com/services/T0/B0/xyz',
        `crm=${SECRET}`,
        'team',
      ),
      { production: true },
    )
    expect(setup.problems).toEqual([])
    expect(setup.endpoints.map(({ name, host, format }) => ({ name, host, format }))).toEqual([
      { name: 'crm', host: 'crm.acme.com', format: 'standard' },
      { name: 'team', host: 'hooks.slack.com', format: 'slack' },
    ])
    expect(setup.slackBody).toBe(false)
    expect(webhookSetup({ WEBHOOK_SLACK_BODY: 'on' }).slackBody).toBe(true)
  })

  it('production refuses http, IP addresses and local names; local development allows http to loopback only', () => {
    const refused = {
      plain: 'http://crm.acme.com/hooks',
      ipv4: 'https://203.0.113.9/hooks',
      ipv6: 'https://[2001:db8::1]/hooks',
      loopback: 'http://127.0.0.1:8798/hooks',
      localhost: 'https://localhost/hooks',
      single: 'https://intranet/hooks',
      dotlocal: 'https://crm.local/hooks',
      internal: 'https://crm.corp.internal/hooks',
      creds: 'https://user:s3cr3t@crm.acme.com/hooks',
      garbage: 'not a url',
    }
    const entries = Object.entries(refused).map(([name, url]) => `${name}=${url}`)
    const secrets = Object.keys(refused).map((name) => `${name}=${SECRET}`)
    const production = webhookSetup(vars(entries.join(' '), secrets.join(' ')), { production: true })
    expect(production.endpoints).toEqual([])
    expect(production.problems).toHaveLength(entries.join(' ').split(' ').length)
    // Names, never a URL, a host or a secret: the problems reach logs.
    for (const problem of production.problems)
      expect(problem).not.toMatch(/acme|203\.0|2001|127\.0|intranet|whsec|s3cr3t/)
    const local = webhookSetup(vars(entries.join(' '), secrets.join(' ')))
    expect(local.endpoints.map((endpoint) => endpoint.name).sort()).toEqual(
      ['ipv4', 'ipv6', 'localhost', 'loopback', 'single', 'dotlocal', 'internal'].sort(),
    )
  })

  it('a secret must be whsec_ and base64 of at least 24 bytes', () => {
    expect(secretProblem(SECRET)).toBeNull()
    expect(secretProblem(`whsec_${Buffer.alloc(SECRET_MIN_BYTES, 7).toString('base64')}`)).toBeNull()
    expect(secretProblem(`whsec_${Buffer.alloc(SECRET_MIN_BYTES - 1, 7).toString('base64')}`)).toMatch(/23 bytes/)
    expect(secretProblem('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toMatch(/whsec_/)
    expect(secretProblem('whsec_not base64!')).toMatch(/base64/)
    const setup = webhookSetup(vars('crm=https://crm.acme.com/h', 'crm=whsec_c2hvcnQ='), { production: true })
    expect(setup.endpoints).toEqual([])
    expect(setup.problems).toEqual(['WEBHOOK_SECRETS: the secret for "crm" holds 5 bytes: at least 24 are needed'])
  })

  it('names a malformed entry, a name given twice, and names the other variables do not know', () => {
    const setup = webhookSetup(
      vars(
        'CRM=https://a.acme.com crm=https://b.acme.com crm=https://c.acme.com',
        `crm=${SECRET} other=${SECRET}`,
        'team',
      ),
    )
    expect(setup.problems).toEqual([
      'WEBHOOK_ENDPOINTS: each entry is name=value, the name 1–32 of a–z, 0–9 and "-" (entry 1 is not)',
      'WEBHOOK_ENDPOINTS: "crm" is named twice',
      'WEBHOOK_SLACK names "team", which WEBHOOK_ENDPOINTS does not',
      'WEBHOOK_SECRETS names "other", which WEBHOOK_ENDPOINTS does not',
    ])
    expect(setup.endpoints.map((endpoint) => endpoint.host)).toEqual(['b.acme.com'])
  })

  it('npm run check:config refuses a bad endpoint and a short secret from --env-file, naming no URL or secret', () => {
    const file = join(scratchDir('check-webhooks'), 'production.vars')
    writeFileSync(
      file,
      'WEBHOOK_ENDPOINTS=crm=http://crm.acme.com/t0k3n erp=https://10.1.2.3/hook\nWEBHOOK_SECRETS=crm=whsec_c2hvcnQ= erp=whsec_c2hvcnQ=\n',
    )
    const check = () => spawnSync('npm', ['run', 'check:config', '--', '--env-file', file], { encoding: 'utf8' })
    const run = check()
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('webhooks: WEBHOOK_ENDPOINTS: "crm" is not https')
    expect(run.stderr).toContain('webhooks: WEBHOOK_ENDPOINTS: "erp" is an IP address')
    expect(run.stdout + run.stderr).not.toMatch(/t0k3n|10\.1\.2\.3|c2hvcnQ/)
    writeFileSync(file, `WEBHOOK_ENDPOINTS=crm=https://crm.acme.com/t0k3n\nWEBHOOK_SECRETS=crm=${SECRET}\n`)
    const good = check()
    expect(good.status).toBe(0)
    expect(good.stdout).toContain('webhooks: every endpoint and secret passes')
  }, 60_000)
})

describe('the two formats', () => {
  it('enquiry.erased carries the id only', () => {
    const payload = { type: 'enquiry.erased', timestamp: erased.createdAt, data: { id: enquiry.id } }
    expect(JSON.parse(webhookPayload(erased, null, SITE))).toEqual(payload)
  })

  it('the Slack message: subject, company, time and the desk link, no message body unless the setting says so', () => {
    const text = (body: boolean) => JSON.parse(slackMessage(received, enquiry, { siteUrl: SITE, body })).text as string
    const plain = text(false)
    expect(plain).toContain('DevOps &amp; Cloud Automation')
    expect(plain).toContain('Company: Rao &amp; &lt;Sons&gt;')
    expect(plain).toContain('Received: 2026-11-26T10:00:00.000Z')
    expect(plain).toContain(`<${SITE}/admin/enquiries/${enquiry.id}|Open it in the desk>`)
    expect(plain).not.toMatch(/pipelines|asha@example.org|Asha/)
    expect(text(true)).toContain('Please call me about our pipelines.')
    const gone = `Enquiry ${enquiry.id} was erased. Delete the message about it from this channel.`
    expect(JSON.parse(slackMessage(erased, null, { siteUrl: SITE, body: true })).text).toBe(gone)
  })

  it('the payload matches docs/webhook-payload.schema.json, at the form’s caps too, and nothing past them', () => {
    const schema = JSON.parse(readFileSync('docs/webhook-payload.schema.json', 'utf8'))
    const validate = new Ajv2020({ validateFormats: false }).compile(schema)
    const longest: Enquiry = {
      ...enquiry,
      name: 'ॐ'.repeat(BYTE_LIMITS.name / 3),
      company: 'x'.repeat(BYTE_LIMITS.company),
      email: `${'a'.repeat(LIMITS.email - 12)}@example.org`,
      message: 'm'.repeat(BYTE_LIMITS.message),
    }
    for (const subject of SUBJECT_VALUES) {
      const payload = JSON.parse(webhookPayload(received, { ...longest, subject }, SITE))
      expect(validate(payload), JSON.stringify(validate.errors)).toBe(true)
    }
    expect(validate(JSON.parse(webhookPayload(erased, null, SITE)))).toBe(true)
    const over = JSON.parse(webhookPayload(received, { ...longest, message: `${longest.message}m` }, SITE))
    expect(validate(over)).toBe(false)
    const extra = JSON.parse(webhookPayload(erased, null, SITE))
    extra.data.name = 'leaked'
    expect(validate(extra)).toBe(false)
  })
})

describe('the delivery alert for an endpoint', () => {
  const row = (endpoint: string, outcome: string, minute: number, cause: string | null = 'receiver_status') => {
    const attemptedAt = `2026-11-26T10:0${minute}:00.000Z`
    return { endpoint, outcome, cause: outcome === 'failed' ? cause : null, attemptedAt }
  }

  it('counts each endpoint’s failed attempts back to its last delivered one, and names those at the threshold', () => {
    // Newest first, endpoints interleaved.
    const attempts = [
      row('crm', 'failed', 9, 'receiver_timeout'),
      row('team', 'delivered', 8),
      row('crm', 'failed', 7),
      row('team', 'failed', 6),
      row('crm', 'failed', 5),
      row('team', 'failed', 4),
      row('crm', 'delivered', 3),
      row('crm', 'failed', 2),
    ]
    expect(endpointStreaks(attempts, 3)).toEqual([
      { endpoint: 'crm', cause: 'receiver_timeout', failures: 3, latestAt: '2026-11-26T10:09:00.000Z' },
    ])
    expect(endpointStreaks(attempts, 4)).toEqual([])
    expect(endpointStreaks(attempts.slice(2), 2).map((streak) => streak.endpoint)).toEqual(['crm', 'team'])
  })

  it('names the endpoint and its host, never a URL', () => {
    const message = webhookAlertMessage(
      { endpoint: 'crm', cause: 'receiver_status', failures: 3, latestAt: '2026-11-26T10:09:00.000Z' },
      { siteName: 'Akshara Labs', host: 'crm.acme.com', now: new Date('2026-11-26T10:10:00Z') },
    )
    expect(message.subject).toBe('Webhook failing: crm, 3 attempts in a row — Akshara Labs')
    expect(message.text).toContain('crm (crm.acme.com) failed 3 attempts in a row; the last cause: receiver_status.')
    expect(message.text).not.toMatch(/https?:/)
  })
})
