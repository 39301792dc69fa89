/**
 * Turnstile on, as an operator turns it on (the site key as a var, the secret given): the server's
 * side. Siteverify is a stand-in on 127.0.0.1 (tests/support/turnstile.ts: a token beginning
 * `pass-` passes). The widget in the page (loaded on the form's first focus, allowed by the CSP) is
 * tests/e2e/turnstile.spec.ts's.
 */
import { expect, test } from 'vitest'
import { TURNSTILE_FIELD } from '../../app/contact/turnstile'
import { TEST_TURNSTILE_SECRET } from '../support/turnstile'
import { enquiry } from '../support/values'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { parseHtml, textOf } from './support/html'
import { follow, linkTo, postForm, pressButton, serverFnAnswer, submitContact, TYPED } from './support/http'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.turnstile() }))

const rowOf = async (email: string) =>
  (
    await worker.sql<{ id: string; status: string; attempts: number; heldReason: string | null }>(
      'SELECT id, status, attempts, held_reason AS heldReason FROM enquiries WHERE email = ?',
      email,
    )
  )[0]

test('the pages’ CSP allows Turnstile’s origin for scripts and frames, and nothing else of it', async () => {
  const csp = (await worker.fetch('/')).headers.get('content-security-policy') ?? ''
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/challenges\.cloudflare\.com(;|$)/)
  expect(csp).toContain('frame-src https://challenges.cloudflare.com')
  expect(csp.match(/challenges\.cloudflare\.com/g)).toHaveLength(2)
})

test('a valid token: siteverify checks it with the secret, and the enquiry is delivered once', async () => {
  const values = enquiry('turnstile-valid')
  const token = `pass-${crypto.randomUUID()}`
  const answer = await submitContact(worker, { ...values, [TURNSTILE_FIELD]: token })
  expect(await serverFnAnswer(answer)).toEqual({ ok: true })
  await expect.poll(() => rowOf(values.email)).toMatchObject({ status: 'delivered', attempts: 1, heldReason: null })
  await worker.cron()
  expect(stand.forms.from(values.email)).toHaveLength(1)
  expect(stand.siteverify.calls()).toContainEqual(
    expect.objectContaining({ secret: TEST_TURNSTILE_SECRET, response: token }),
  )
})

test('an invalid token: the visitor is told it is sent, the enquiry is held and nothing is delivered', async () => {
  const values = enquiry('turnstile-invalid')
  const answer = await submitContact(worker, { ...values, [TURNSTILE_FIELD]: 'forged-token' })
  expect(await serverFnAnswer(answer)).toEqual({ ok: true })
  expect(await rowOf(values.email)).toMatchObject({ status: 'held', attempts: 0, heldReason: 'turnstile_invalid' })
  await worker.cron()
  expect(stand.forms.from(values.email)).toHaveLength(0)
})

test('no token (a post without JavaScript): stored as held, the visitor sent back to the success message', async () => {
  const values = enquiry('turnstile-nojs')
  const post = await postForm(worker, '/api/contact', { ...values })
  expect(post.status).toBe(303)
  const page = parseHtml(await (await follow(worker, post)).text())
  expect(textOf(page.querySelector('#contact-status'))).toContain('Your message has been sent successfully!')
  expect(await rowOf(values.email)).toMatchObject({ status: 'held', attempts: 0, heldReason: 'turnstile_missing' })
  await worker.cron()
  expect(stand.forms.from(values.email)).toHaveLength(0)
})

test('siteverify down: held as unverified; released from the desk without JavaScript, delivered once', async () => {
  const values = enquiry('turnstile-down', { name: `Held ${crypto.randomUUID().slice(0, 8)}` })
  stand.siteverify.down(true)
  expect((await submitContact(worker, { ...values, [TURNSTILE_FIELD]: `pass-${crypto.randomUUID()}` })).status).toBe(
    200,
  )
  stand.siteverify.down(false)
  const row = await rowOf(values.email)
  expect(row).toMatchObject({ status: 'held', attempts: 0, heldReason: 'turnstile_unverified' })
  await worker.cron()
  expect(stand.forms.from(values.email)).toHaveLength(0)

  // The operator finds it among the held, opens it and presses Release and deliver.
  const headers = { 'Cf-Access-Jwt-Assertion': await stand.keys.sign(), ...TYPED }
  const list = parseHtml(
    await (await worker.fetch(`/admin?status=held&q=${encodeURIComponent(values.name)}`, { headers })).text(),
  )
  const detail = parseHtml(await (await worker.fetch(linkTo(list, values.name), { headers })).text())
  expect(textOf(detail.body)).toContain('turnstile_unverified')
  const released = await pressButton(worker, detail, 'Release and deliver', {}, { headers })
  expect(released.status).toBe(303)
  const flash = parseHtml(await (await follow(worker, released, undefined, headers)).text())
  expect(textOf(flash.querySelector('[role="status"]'))).toContain('Delivered now.')
  expect(await rowOf(values.email)).toMatchObject({ status: 'delivered', attempts: 1 })
  await worker.cron()
  expect(stand.forms.from(values.email)).toHaveLength(1)
})

test('the desk’s set-up shows operators that Turnstile is on', async () => {
  const headers = { 'Cf-Access-Jwt-Assertion': await stand.keys.sign(), ...TYPED }
  const page = parseHtml(await (await worker.fetch('/admin/setup', { headers })).text())
  expect(textOf(page.querySelector('[data-testid="setup-turnstile"]'))).toBe(
    'on: enquiries without a valid token are held',
  )
})
