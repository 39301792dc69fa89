// The enquiry's server path on SQLite, with the form service and siteverify as a stubbed `fetch`
// and the printed lines read back. A file calls `setUpSubmitHarness()` and mocks `cloudflare:email` itself.
import type * as v from 'valibot'
import { afterEach, beforeEach, expect, vi } from 'vitest'
import { type EnquiryOutcome, invalidInputReply, outcomeReply, submitEnquiry } from '~/contact/contact.server'
import { resetLimitState } from '~/contact/limits.server'
import type { EnquiryInput } from '~/contact/schema'
import { SITEVERIFY_URL } from '~/contact/turnstile.server'
import type { Row as LedgerRow } from '~/ledger/columns'
import { requestIdFor } from '~/server/log.server'
import { replyResponse } from '~/server/reply'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { captureConsole } from './console'
import { type SqliteD1, sqliteD1 } from './d1-sqlite'
import { enquiryInput as anEnquiryInput, tokenEnquiryInput } from './enquiry-input'
import { contactEnv, fakeRateLimiter, waitUntilCollector } from './fake-env'

/** What the no-JavaScript endpoint answers a client that is not a browser: the reply as a Response. */
export const outcomeAnswer = (outcome: EnquiryOutcome, request: Request) =>
  replyResponse(outcomeReply(outcome), requestIdFor(request))
export const invalidInputAnswer = (issues: readonly v.BaseIssue<unknown>[], request: Request) =>
  replyResponse(invalidInputReply(issues, requestIdFor(request)), requestIdFor(request))

export const KEY = 'unit-key-d41d8cd98f00'
export const ENDPOINT = 'https://forms.test/submit'
export const NAME = 'Zeynep Quillfeather'
export const SECRET_WORDS = 'a confidential project about pumps'
export const COMPANY = 'Godavari Foods'
export const FROM = 'website@aksharalabs.in'

/** A row of `enquiries` as SQL returns it: the ledger's, with the key its reads leave out. */
export type Row = LedgerRow & { idempotency_key: string }

/** A row of `enquiry_attempts`. */
export type Attempt = Record<'enquiry_id' | 'attempted_at' | 'delivery' | 'outcome', string> & {
  attempt: number
  cause: string | null
}

/** One post the stand-in form service received, with the enquiry rows as they were at that moment. */
export interface FormPost {
  url: string
  body: Record<string, unknown>
  rowsThen: Row[]
}

export type Answer = Response | 'hang'
/** Siteverify's answer to a token: its JSON, a Response, never, or a network failure. */
export type Verdict = Record<string, unknown> | Response | 'hang' | 'unreachable'
export const SITE_HOST = new URL(site.url).hostname
/** Siteverify's default: a token `good-token` passes, for this site's host and the form's action. */
const passGoodToken = (token: string): Verdict =>
  token === 'good-token'
    ? { success: true, action: 'contact', hostname: SITE_HOST, 'error-codes': [] }
    : { success: false, 'error-codes': ['invalid-input-response'] }

/** The file's stand-ins, fresh for each test: the database, the form service's posts and its answer, siteverify. */
export const form = {
  d1: undefined as unknown as SqliteD1,
  posts: [] as FormPost[],
  answer: (_post: FormPost): Answer | Promise<Answer> => Response.json({ success: true }),
  verdict: passGoodToken,
  siteverifyCalls: [] as { url: string; secret: string; response: string; remoteip: string | null }[],
  fetchMock: undefined as unknown as ReturnType<typeof vi.fn>,
  printed: undefined as unknown as ReturnType<typeof captureConsole>,
}
let counter = 0

/** An answer, or one that never comes: only the caller's time-out ends the wait. */
function answerOrHang(reply: Response | 'hang', init?: RequestInit): Promise<Response> | Response {
  if (reply !== 'hang') return reply
  return new Promise<Response>((_, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
  })
}

async function siteverify(url: string, init?: RequestInit): Promise<Response> {
  const body = init?.body as FormData
  const [secret, response] = [String(body.get('secret')), String(body.get('response'))]
  form.siteverifyCalls.push({ url, secret, response, remoteip: body.get('remoteip') as string | null })
  const reply = form.verdict(response)
  if (reply === 'unreachable') throw new TypeError('fetch failed')
  return answerOrHang(reply === 'hang' || reply instanceof Response ? reply : Response.json(reply), init)
}

/** Registers the per-test set-up: a fresh database and limits, the stand-ins stubbed as `fetch`, the console read. */
export function setUpSubmitHarness() {
  beforeEach(() => {
    form.d1 = sqliteD1()
    resetLimitState()
    form.posts = []
    form.siteverifyCalls = []
    form.verdict = passGoodToken
    form.answer = () => Response.json({ success: true, message: 'Email sent successfully!' })
    const realFetch = globalThis.fetch
    form.fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input)
      if (url === SITEVERIFY_URL) return siteverify(url, init)
      if (/^http:\/\/127\.0\.0\.1[:/]/.test(url)) return realFetch(input, init)
      const post: FormPost = {
        url,
        body: JSON.parse(String(init?.body)) as Record<string, unknown>,
        rowsThen: form.d1.query<Row>('SELECT * FROM enquiries'),
      }
      form.posts.push(post)
      return answerOrHang(await form.answer(post), init)
    })
    vi.stubGlobal('fetch', form.fetchMock)
    form.printed = captureConsole()
  })

  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
    form.d1.close()
  })
}

/** Every line the code printed, with the structured ones parsed. */
export function printed() {
  const lines = form.printed.lines()
  const json = lines.flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as Record<string, unknown>] : []))
  return { lines, json, calls: lines.length }
}

/** The structured log lines. */
export const logged = () => printed().json

export function clearPrinted() {
  for (const spy of form.printed.spies) spy.mockClear()
}

/** The unit's visitor: the same name, company and words in every enquiry, so a leak of them is found. */
export function enquiryInput(overrides: Record<string, unknown> = {}): EnquiryInput {
  counter += 1
  return anEnquiryInput(`client-${counter}`, {
    name: NAME,
    company: COMPANY,
    subject: 'automation',
    message: `Hello, ${SECRET_WORDS}.`,
    ...overrides,
  })
}

/** A request to the deployed site (a local one also prints the enquiry for the developer). */
export function request(ip = `198.51.100.${counter % 250}`, url = 'https://aksharalabs.in/_serverFn/x') {
  return new Request(url, { method: 'POST', headers: { 'CF-Connecting-IP': ip } })
}

export function env(extra: Record<string, unknown> = {}): WorkerEnv {
  return contactEnv({
    CONTACT_DELIVERY: 'form-service',
    CONTACT_FORM_ENDPOINT: ENDPOINT,
    CONTACT_FORM_ACCESS_KEY: KEY,
    CONTACT_RATE_LIMITER: fakeRateLimiter(),
    CONTACT_NETWORK_RATE_LIMITER: fakeRateLimiter(),
    ENQUIRIES: form.d1.db,
    ...extra,
  })
}

/** Submits as the Worker does: the answer first, then the work left in `waitUntil`, awaited here. */
export async function submit(
  data: EnquiryInput,
  e: WorkerEnv,
  options: { request?: Request; timeoutMs?: number } = {},
): Promise<EnquiryOutcome> {
  const work = waitUntilCollector()
  const outcome = await submitEnquiry(data, {
    requestId: 'test-request',
    env: e,
    request: options.request ?? request(),
    waitUntil: work.waitUntil,
    timeoutMs: options.timeoutMs,
  })
  await work.settle()
  return outcome
}

/** A short enquiry with a Turnstile token, or none, from an address of its own. */
export const tokenInput = (token?: string): EnquiryInput => tokenEnquiryInput(`token-${++counter}`, token)

/** The env with no rate limiter bound: the enquiry database counts alone. */
export const envUnbound = (extra: Record<string, unknown> = {}) =>
  env({ CONTACT_RATE_LIMITER: undefined, CONTACT_NETWORK_RATE_LIMITER: undefined, ...extra })

/** Submits from a client address. */
export const submitFrom = (address: string, e: WorkerEnv, data = tokenInput(), timeoutMs?: number) =>
  submit(data, e, { request: request(address), timeoutMs })

export const rowFor = (email: string) => form.d1.row<Row>('SELECT * FROM enquiries WHERE email = ?1', email)
export const allRows = () => form.d1.query<Row>('SELECT * FROM enquiries ORDER BY received_at, id')
export const attemptsFor = (id: string) =>
  form.d1.query<Attempt>('SELECT * FROM enquiry_attempts WHERE enquiry_id = ?1 ORDER BY attempt', id)
/** A clock `ms` from now. */
export const later = (ms: number) => () => new Date(Date.now() + ms)

export function expectNoPersonalData(lines: string[], data: EnquiryInput) {
  for (const line of lines) {
    expect(line).not.toContain(NAME)
    expect(line).not.toContain(data.email)
    expect(line).not.toContain(SECRET_WORDS)
    expect(line).not.toContain(COMPANY)
    expect(line).not.toContain(KEY)
  }
}

/** The Subject header of a raw e-mail, unfolded and decoded (RFC 2047, B encoding). */
export function subjectOf(raw: string): string {
  const match = raw.match(/^Subject: (.*(?:\r\n .*)*)/m)
  return (match?.[1] ?? '')
    .replace(/\?=\r\n =\?/g, '?==?')
    .replace(/=\?UTF-8\?B\?([^?]*)\?=/g, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'))
}

/** The text of a raw e-mail's base64 body. */
export function emailBody(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4)
  return Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8')
}
