// Fuzzing both contact endpoints in workerd (FUZZ_RUNS bodies each, FUZZ_SEED to replay): never a 5xx,
// a 4xx always says why, and only a valid input with an empty honeypot is forwarded, once, with the server's key.
import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { toJSON } from 'seroval'
import * as v from 'valibot'
import { expect, test } from 'vitest'
import { enquiryInputSchema } from '../../app/contact/schema'
import { SUBJECT_VALUES } from '../../app/content/subjects'
import { siteUnderTest, standInsForFile, TEST_ACCESS_KEY } from './support/fixtures'
import { serverFnAnswer, serverFnId } from './support/http'

const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.CI ? 300 : 1000))
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31)

// Each body from a /48 of its own: the site limits 10 posts a minute per /48 (and 5 per /64).
const ipv6 = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`

const control = fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f)
const controlChars = fc.array(control, { minLength: 1, maxLength: 4 }).map((codes) => String.fromCharCode(...codes))

const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) }, // lone surrogates included
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), controlChars).map(([a, b]) => a + b) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\r\n', 'Bcc: x@example.com\r\nX: y', '\u0000', '👍🏽') },
  { weight: 1, arbitrary: fc.integer({ min: 90, max: 6000 }).map((n) => 'x'.repeat(n)) },
)

const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 3 }),
  fc.letrec((tie) => ({ deep: fc.oneof({ depthSize: 'small' }, fc.constant(1), fc.tuple(tie('deep'))) })).deep,
)

const fieldValue = (valid: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 16, arbitrary: valid },
    { weight: 3, arbitrary: text },
    { weight: 1, arbitrary: wrongType },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )

const validEmail = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9.]{0,12}[a-z0-9]$/), fc.constantFrom('example.com', 'mail.example.org'))
  .map(([local, domain]) => `${local.replace(/\.\.+/g, '.')}@${domain}`)

const extraKeys = fc.dictionary(
  fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'access_key', 'toString'), fc.string()),
  fc.oneof(fc.string(), wrongType),
  { maxKeys: 3 },
)

/** A enquiry: mostly plausible, often with one or more fields broken in some way. */
const enquiry = fc
  .record({
    name: fieldValue(fc.constantFrom('Lakshmi Prasanna', 'Zoë', 'శ్రీనివాస్', ' Ravi ')),
    email: fieldValue(validEmail),
    company: fieldValue(fc.constantFrom('', 'Godavari Agro Exports', 'A & B')),
    subject: fieldValue(fc.constantFrom(...SUBJECT_VALUES, 'sales')),
    message: fieldValue(fc.constantFrom('We need CI/CD for 40 services.', 'Line one\r\nLine two', '  hi  ')),
    website: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: text }),
    extra: extraKeys,
  })
  .map(({ extra, ...fields }) => {
    const body: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(extra)) {
      Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true })
    }
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value
    return body
  })

/** Bodies that are not a enquiry at all. */
const garbage = fc.oneof(
  fc.constant({ contentType: 'application/json', body: '' }),
  fc.string().map((body) => ({ contentType: 'application/json', body })),
  fc.json().map((body) => ({ contentType: 'application/json', body })),
  fc.integer({ min: 100, max: 20_000 }).map((n) => ({ contentType: 'application/json', body: '['.repeat(n) })),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ contentType: 'application/json', body: Buffer.from(bytes) })),
  fc.string().map((body) => ({ contentType: 'text/plain', body })),
  fc.string().map((body) => ({ contentType: 'multipart/form-data; boundary=x', body })),
  fc.string().map((body) => ({ contentType: 'application/x-www-form-urlencoded', body })),
  fc
    .uint8Array({ maxLength: 200 })
    .map((bytes) => ({ contentType: 'application/x-www-form-urlencoded', body: Buffer.from(bytes) })),
)

type Body = { contentType: string; body: string | Buffer }
type Case = { kind: 'enquiry'; fields: Record<string, unknown> } | ({ kind: 'garbage' } & Body)

const cases: fc.Arbitrary<Case> = fc.oneof(
  { weight: 4, arbitrary: enquiry.map((fields) => ({ kind: 'enquiry' as const, fields })) },
  { weight: 1, arbitrary: garbage.map((g) => ({ kind: 'garbage' as const, ...g })) },
)

/** Whether the server must forward this enquiry (valid, honeypot empty), by the shared schema. */
function mustForward(fields: Record<string, unknown>): boolean {
  const result = v.safeParse(enquiryInputSchema, fields)
  return result.success && result.output.website.trim() === ''
}

function isValid(fields: Record<string, unknown>): boolean {
  return v.safeParse(enquiryInputSchema, fields).success
}

/** What a form post carries: every value as a string, first occurrence of a key wins. */
function asFormFields(fields: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(fields)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    // A form post is UTF-8: a lone surrogate arrives as U+FFFD.
    const wellFormed = (text as string & { toWellFormed(): string }).toWellFormed()
    if (!Object.hasOwn(out, key)) Object.defineProperty(out, key, { value: wellFormed, enumerable: true })
  }
  return out
}

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.production() }))

async function check(
  path: string,
  serverFn: boolean,
  c: Case,
  encode: (fields: Record<string, unknown>) => Body,
  expected: { forwarded: number },
) {
  const { contentType, body } = c.kind === 'enquiry' ? encode(c.fields) : c
  const response = await worker.fetch(path, {
    method: 'POST',
    headers: {
      'Content-Type': contentType,
      Origin: worker.origin,
      'Sec-Fetch-Site': 'same-origin',
      'x-tsr-serverFn': 'true',
    },
    body: typeof body === 'string' ? body : new Uint8Array(body),
    ip: ipv6(),
  })
  const status = response.status
  expect(status, `a 5xx for ${JSON.stringify(c).slice(0, 300)}`).toBeLessThan(500)
  const answer = (await serverFnAnswer(response)) as { ok?: boolean; error?: unknown } | null
  if (status >= 400) {
    expect(typeof answer?.error, `a 4xx without a machine-readable reason (${status})`).toBe('string')
    expect(answer?.ok).toBe(false)
  }
  if (c.kind === 'enquiry') {
    const fields = serverFn ? c.fields : asFormFields(c.fields)
    const valid = isValid(fields)
    expect(status, `valid ${valid}: ${JSON.stringify(c.fields).slice(0, 300)}`).toBe(valid ? 200 : 400)
    if (mustForward(fields)) expected.forwarded++
  } else {
    expect(status).toBeGreaterThanOrEqual(400)
  }
  // Delivery starts once the enquiry is stored and may finish just after the answer.
  await expect
    .poll(() => stand.forms.received.length, { message: 'what reached the form service differs from what should have' })
    .toBe(expected.forwarded)
}

async function runProperty(path: string, serverFn: boolean, encode: (f: Record<string, unknown>) => Body) {
  const expected = { forwarded: 0 }
  await fc.assert(
    fc.asyncProperty(cases, (c) => check(path, serverFn, c, encode, expected)),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  )
  // Forwarded: the six fields and the server's key, no visitor text in any header.
  for (const r of stand.forms.received) {
    expect(() => JSON.parse(r.raw)).not.toThrow()
    expect(Object.keys(r.json as object).sort()).toEqual(
      ['access_key', 'company', 'email', 'message', 'name', 'subject'].sort(),
    )
    expect((r.json as { access_key?: unknown }).access_key).toBe(TEST_ACCESS_KEY)
    const { name, email } = r.json as { name: string; email: string }
    const visitorText = [name, email].filter((t) => t.length >= 8)
    for (const value of Object.values(r.headers).flat()) {
      expect(String(value)).not.toMatch(/[\r\n]/)
      for (const t of visitorText) expect(String(value)).not.toContain(t)
    }
  }
  expect(worker.output()).not.toMatch(/Uncaught|Unhandled/i)
  // Each body forwarded was stored once and is recorded as delivered.
  expect(await worker.sql('SELECT id FROM enquiries')).toHaveLength(expected.forwarded)
  await expect
    .poll(async () => (await worker.sql("SELECT id FROM enquiries WHERE status != 'delivered'")).length)
    .toBe(0)
  console.log(`fuzz ${path}: ${RUNS} bodies, seed ${SEED}, ${expected.forwarded} valid and forwarded`)
}

test('the server function the form calls', { timeout: 60_000 + RUNS * 500 }, async () => {
  await runProperty(`/_serverFn/${serverFnId('submitContact')}`, true, (fields) => ({
    contentType: 'application/json',
    body: JSON.stringify(toJSON({ data: fields })),
  }))
})

test('the form post without JavaScript', { timeout: 60_000 + RUNS * 500 }, async () => {
  await runProperty('/api/contact', false, (fields) => ({
    contentType: 'application/x-www-form-urlencoded',
    body: new URLSearchParams(Object.entries(asFormFields(fields))).toString(),
  }))
})
