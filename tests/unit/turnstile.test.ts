// @vitest-environment node
// Turnstile on the server: an enquiry without a valid token is held, never refused, never delivered until released.
import { describe, expect, it, vi } from 'vitest'
import { deliverDueEnquiries } from '~/contact/attempts.server'
import type { EnquiryInput } from '~/contact/schema'
import { TURNSTILE_FIELD } from '~/contact/turnstile'
import {
  SITEVERIFY_TIMEOUT_MS,
  SITEVERIFY_URL,
  siteHosts,
  turnstileSetup,
  verifyTurnstile,
} from '~/contact/turnstile.server'
import { FakeEmailMessage } from '../support/fake-env'
import {
  tokenInput as enquiryInput,
  form,
  env as harnessEnv,
  printed,
  rowFor,
  SITE_HOST,
  setUpSubmitHarness,
  submitFrom,
  type Verdict,
} from '../support/submit-harness'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

setUpSubmitHarness()

const SECRET = 'turnstile-secret-0x4AAAA-unit'
const env = (extra: Record<string, unknown> = {}) =>
  harnessEnv({ TURNSTILE_SITE_KEY: '0x4AAAAAAunit-site-key', TURNSTILE_SECRET_KEY: SECRET, ...extra })
const submit = (data: EnquiryInput, e = env(), timeoutMs?: number) => submitFrom('203.0.113.9', e, data, timeoutMs)
const logLines = () => printed().lines.join('\n')
async function verify(vars: Record<string, unknown>, requestHost: string, token = 'any-token') {
  const setup = turnstileSetup(env())
  if (!setup.on) throw new Error('expected on')
  return verifyTurnstile(setup, vars, token, { requestId: 'r', requestHost })
}

describe('while Turnstile is off', () => {
  it.each([
    ['with neither key, checks nothing and delivers as before', { TURNSTILE_SITE_KEY: '', TURNSTILE_SECRET_KEY: '' }],
    ['with one key set, stays off and says so in the log', { TURNSTILE_SECRET_KEY: '' }],
  ])('%s', async (_, keys) => {
    const data = enquiryInput()
    await submit(data, env(keys))
    expect(form.siteverifyCalls).toHaveLength(0)
    expect(rowFor(data.email)?.status).toBe('delivered')
    if (!('TURNSTILE_SITE_KEY' in keys)) expect(logLines()).toContain('TURNSTILE_SECRET_KEY')
  })
})

describe('with Turnstile on', () => {
  it('a valid token: siteverify gets the secret, the token and the address; the enquiry is delivered', async () => {
    const data = enquiryInput('good-token')
    const outcome = await submit(data)
    expect(outcome).toMatchObject({ kind: 'stored', repeat: false })
    const call = { url: SITEVERIFY_URL, secret: SECRET, response: 'good-token', remoteip: '203.0.113.9' }
    expect(form.siteverifyCalls).toEqual([call])
    expect(rowFor(data.email)).toMatchObject({ status: 'delivered', held_reason: null })
    expect(form.posts).toHaveLength(1)
  })

  const holds: [string, string | undefined, Verdict | null, string][] = [
    ['no token (no JavaScript, or the widget never loaded)', undefined, null, 'turnstile_missing'],
    ['an invalid token', 'forged', null, 'turnstile_invalid'],
    ['a spent token', 'spent', { success: false, 'error-codes': ['timeout-or-duplicate'] }, 'turnstile_invalid'],
    [
      'a token made for another action',
      'other',
      { success: true, action: 'login', hostname: SITE_HOST },
      'turnstile_invalid',
    ],
    ['siteverify unreachable', 'good-token', 'unreachable', 'turnstile_unverified'],
    ['siteverify answering 503', 'good-token', new Response('down', { status: 503 }), 'turnstile_unverified'],
    ['siteverify answering something not JSON', 'good-token', new Response('<html>'), 'turnstile_unverified'],
    [
      'our secret refused',
      'good-token',
      { success: false, 'error-codes': ['invalid-input-secret'] },
      'turnstile_unverified',
    ],
    [
      'Cloudflare’s internal error',
      'good-token',
      { success: false, 'error-codes': ['internal-error'] },
      'turnstile_unverified',
    ],
  ]
  it.each(holds)(
    '%s: stored as held, the visitor told it is sent, nothing delivered',
    async (_, token, reply, reason) => {
      if (reply) form.verdict = () => reply
      const data = enquiryInput(token)
      const outcome = await submit(data)
      expect(outcome).toMatchObject({ kind: 'stored' })
      const held = { status: 'held', held_reason: reason, attempts: 0, next_attempt_at: null }
      expect(rowFor(data.email)).toMatchObject(held)
      await deliverDueEnquiries(env(), { now: () => new Date(Date.now() + 86_400_000) })
      expect(form.posts).toHaveLength(0)
      expect(logLines()).not.toContain(SECRET)
      if (token) expect(logLines()).not.toContain(token)
    },
  )

  it(`siteverify hanging: held after the ${SITEVERIFY_TIMEOUT_MS / 1000} s time-out`, async () => {
    form.verdict = () => 'hang'
    const data = enquiryInput('good-token')
    const started = Date.now()
    await submit(data, env(), 50)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(rowFor(data.email)).toMatchObject({ status: 'held', held_reason: 'turnstile_unverified' })
  })

  it('a repeat post of the same form fill is the same enquiry, held or not', async () => {
    const data = enquiryInput('forged')
    await submit(data)
    await submit({ ...data, [TURNSTILE_FIELD]: 'good-token' })
    expect(form.d1.query('SELECT id FROM enquiries WHERE email = ?1', data.email)).toHaveLength(1)
    expect(rowFor(data.email)?.status).toBe('held')
  })

  it('a token longer than any Turnstile token is dropped, so the enquiry is held as missing, not refused', async () => {
    const data = enquiryInput('x'.repeat(5000))
    expect(data[TURNSTILE_FIELD]).toBeUndefined()
    await submit(data)
    expect(rowFor(data.email)).toMatchObject({ status: 'held', held_reason: 'turnstile_missing' })
  })
})

describe('a siteverify address that is not loopback', () => {
  it('pointed elsewhere, sends the secret nowhere and holds the enquiry', async () => {
    const refused = await verify({ TURNSTILE_VERIFY_URL: 'https://evil.example/' }, SITE_HOST, 'good-token')
    expect(refused).toEqual({ ok: false, hold: 'turnstile_unverified', cause: 'verify_url_refused' })
    expect(form.siteverifyCalls).toHaveLength(0)
  })
})

describe('siteverify’s answer must be for this form, on one of this site’s hosts', () => {
  async function check(answer: Record<string, unknown>, requestHost = SITE_HOST) {
    form.verdict = () => answer
    return verify(env(), requestHost)
  }
  const pass = { ok: true }
  const wrongAction = { ok: false, hold: 'turnstile_invalid', cause: 'wrong_action' }
  const wrongHost = (hostname: string) => ({ ok: false, hold: 'turnstile_invalid', cause: 'wrong_hostname', hostname })

  it.each(['login', '', undefined, 'Contact'])('an action %j, not `contact`, is held', async (action) => {
    expect(await check({ success: true, action, hostname: SITE_HOST })).toEqual(wrongAction)
  })

  const OWN = 'akshara-labs-site.team.workers.dev'
  const others = ['evil.example', `${SITE_HOST}.evil.example`, `evil${SITE_HOST}`, 'example.com', 'x.team.workers.dev']
  it.each<[unknown, string, string | null]>([
    [SITE_HOST, SITE_HOST, null],
    [`www.${SITE_HOST}`, SITE_HOST, null],
    [SITE_HOST.toUpperCase(), SITE_HOST, null],
    ...others.map((other): [string, string, string] => [other, SITE_HOST, other]),
    [undefined, SITE_HOST, ''],
    ['', SITE_HOST, ''],
    [42, SITE_HOST, ''],
    // A workers.dev host only for a post to that same host (a preview, staging, or before the domain).
    [OWN, OWN, null],
    [SITE_HOST, OWN, null],
    ['x.team.workers.dev', OWN, 'x.team.workers.dev'],
    [OWN, SITE_HOST, OWN],
    // A local name only for a post served on this machine.
    ['localhost', '127.0.0.1', null],
    ['localhost', 'localhost', null],
    ['127.0.0.1', 'localhost', null],
    ['localhost', SITE_HOST, 'localhost'],
  ])('an answer for %j to a post on %s is held naming %j (null: it passes)', async (hostname, host, held) => {
    const answer = await check({ success: true, action: 'contact', hostname }, host)
    expect(answer).toEqual(held === null ? pass : wrongHost(held))
  })

  it('the site’s hosts are its canonical host and its www', () => {
    expect([...siteHosts(SITE_HOST)].sort()).toEqual([SITE_HOST, `www.${SITE_HOST}`].sort())
  })

  it('a token from another site is stored as held, never delivered, and the log names the host it came from', async () => {
    form.verdict = () => ({ success: true, action: 'contact', hostname: 'token-farm.example' })
    const data = enquiryInput('farmed-token')
    expect(await submit(data)).toMatchObject({ kind: 'stored' })
    expect(rowFor(data.email)).toMatchObject({ status: 'held', held_reason: 'turnstile_invalid' })
    const line = printed().lines.find((text) => text.includes('contact_turnstile')) ?? ''
    const logged = JSON.parse(line.slice(line.indexOf('{')))
    expect(logged).toMatchObject({ hold: 'turnstile_invalid', cause: 'wrong_hostname', hostname: 'token-farm.example' })
    expect(line).not.toContain('farmed-token')
  })
})
