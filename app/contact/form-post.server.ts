import { appendResponseHeader, getCookies, getRequest, setResponseHeader } from '@tanstack/react-start/server'
import * as v from 'valibot'
import { CONTACT_FIELDS, type ContactField, pickValues } from '~/ledger'
import { contactPageSource, SOURCE_FIELDS, type SourceValues } from '~/lib/visit-source'
import { seeOther } from '~/server/answer'
import { readFormBody } from '~/server/body-limit.server'
import { shareWithOwnValue } from '~/server/html-cache.server'
import { requestIdFor } from '~/server/log.server'
import { refusal, replyResponse } from '~/server/reply'
import type { WorkerRuntime } from '~/server/runtime.server'
import { invalidInputReply, outcomeReply, refusedFields, submitEnquiry } from './contact.server'
import { HONEYPOT_FIELD, IDEMPOTENCY_KEY_FIELD, newIdempotencyKey } from './fields'
import { enquiryInputSchema, MESSAGES, type MessageCode, messageCode } from './schema'
import type { FieldErrorCodes, FormOutcome } from './status'
import { TURNSTILE_FIELD } from './turnstile'

/** Without JavaScript: a 303 back to `/contact`, the result in a short-lived cookie read once (never the URL);
 * errors travel as codes, since a sibling subdomain could set a cookie's text. */

export const FORM_RETURN_PATH = '/contact#contact-status'

export const OUTCOME_COOKIE = 'contact_outcome_'
export const OUTCOME_PATH = '/contact'
export const OUTCOME_MAX_AGE_SECONDS = 120
const CHUNK_LENGTH = 3800
const MAX_CHUNKS = 10

export function isNavigation(request: Request): boolean {
  const mode = request.headers.get('Sec-Fetch-Mode')
  if (mode !== null) return mode === 'navigate'
  return (request.headers.get('Accept') ?? '').includes('text/html')
}

/** Same validation and delivery as the server function. */
export async function handleFormPost(request: Request, runtime: WorkerRuntime): Promise<Response> {
  const requestId = requestIdFor(request)
  const browser = isNavigation(request)
  const secure = new URL(request.url).protocol === 'https:'
  const body = await readFormBody(request)
  if (!body.ok)
    return replyResponse(
      body.status === 415
        ? refusal(
            'unsupported_media_type',
            415,
            'Send the form as application/x-www-form-urlencoded or multipart/form-data.',
          )
        : refusal('malformed_body', 400, 'The form data could not be read.'),
      requestId,
    )
  const raw: Record<string, string> = {}
  for (const field of [...CONTACT_FIELDS, HONEYPOT_FIELD, IDEMPOTENCY_KEY_FIELD, TURNSTILE_FIELD, ...SOURCE_FIELDS]) {
    const value = body.form.get(field)
    if (typeof value === 'string') raw[field] = value
  }
  const parsed = v.safeParse(enquiryInputSchema, raw)
  let result: FormOutcome
  if (!parsed.success) {
    if (!browser) return replyResponse(invalidInputReply(parsed.issues, requestId), requestId)
    const fields = refusedFields(parsed.issues, requestId)
    const errors: FieldErrorCodes = {}
    for (const field of CONTACT_FIELDS) {
      const code = fields[field] ? messageCode(fields[field]) : undefined
      if (code) errors[field] = code
    }
    result = { status: 'invalid', values: pickValues(raw), errors }
  } else {
    const outcome = await submitEnquiry(parsed.output, { ...runtime, request, requestId })
    if (!browser) return replyResponse(outcomeReply(outcome), requestId)
    // Stored (or a bot's post, dropped): only the result travels back, never the values.
    const stored = outcome.kind === 'stored' || outcome.kind === 'ignored'
    result = stored ? { status: 'success' } : { status: 'failure', values: pickValues(raw) }
  }
  const cookies = outcomeCookies(result, secure).map((cookie): [string, string] => ['Set-Cookie', cookie])
  return seeOther(FORM_RETURN_PATH, [['X-Request-Id', requestId], ...cookies])
}

/** A post's result for the contact page's render, cleared so it shows once. */
export function takeFormOutcome(idempotencyKey: string): FormOutcome | null {
  setResponseHeader('Cache-Control', 'private, no-cache')
  shareWithOwnValue(getRequest(), idempotencyKey, newIdempotencyKey)
  const cookies = getCookies()
  const clear = clearOutcomeCookies(cookies, new URL(getRequest().url).protocol === 'https:')
  if (clear.length === 0) return null
  setResponseHeader('Cache-Control', 'no-store')
  for (const cookie of clear) appendResponseHeader('Set-Cookie', cookie)
  return readFormOutcome(cookies)
}

/** A post without JavaScript carries the visit's source too. Nothing is stored until it is sent. */
export function formSource(): SourceValues {
  const request = getRequest()
  return contactPageSource(new URL(request.url), request.headers.get('Referer'))
}

function attributes(maxAge: number, secure: boolean): string {
  return `Path=${OUTCOME_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`
}

export function outcomeCookies(result: FormOutcome, secure: boolean): string[] {
  let encoded = toBase64Url(JSON.stringify(result))
  if (encoded.length > CHUNK_LENGTH * MAX_CHUNKS) {
    // Cannot happen within the 32 KB body limit; the result still arrives, without the values.
    encoded = toBase64Url(
      JSON.stringify({ status: result.status === 'success' ? 'success' : 'failure', values: pickValues({}) }),
    )
  }
  const chunks: string[] = []
  for (let i = 0; i < encoded.length; i += CHUNK_LENGTH) chunks.push(encoded.slice(i, i + CHUNK_LENGTH))
  return chunks.map((chunk, index) => {
    const value = index === 0 ? `${chunks.length}.${chunk}` : chunk
    return `${OUTCOME_COOKIE}${index}=${value}; ${attributes(OUTCOME_MAX_AGE_SECONDS, secure)}`
  })
}

export function clearOutcomeCookies(cookies: Record<string, string | undefined>, secure: boolean): string[] {
  return Object.keys(cookies)
    .filter((name) => name.startsWith(OUTCOME_COOKIE))
    .map((name) => `${name}=; ${attributes(0, secure)}`)
}

/** The cookie's shape, every field from the registry: what it carries back is checked, field by field. */
const text = v.pipe(v.string(), v.maxLength(20_000))
const code = v.picklist(Object.keys(MESSAGES) as [MessageCode, ...MessageCode[]])
const eachField = <S>(schema: S) =>
  Object.fromEntries(CONTACT_FIELDS.map((field) => [field, schema])) as Record<ContactField, S>
const valuesSchema = v.object(eachField(text))
const outcomeSchema = v.variant('status', [
  v.object({ status: v.literal('success') }),
  v.object({ status: v.literal('failure'), values: valuesSchema }),
  v.object({ status: v.literal('invalid'), values: valuesSchema, errors: v.partial(v.object(eachField(code))) }),
])

export function readFormOutcome(cookies: Record<string, string | undefined>): FormOutcome | null {
  const first = cookies[`${OUTCOME_COOKIE}0`]
  const match = first?.match(/^(\d{1,2})\.(.*)$/)
  if (!match) return null
  const count = Number(match[1])
  if (count < 1 || count > MAX_CHUNKS) return null
  let encoded = match[2] ?? ''
  for (let i = 1; i < count; i++) {
    const part = cookies[`${OUTCOME_COOKIE}${i}`]
    if (part === undefined) return null
    encoded += part
  }
  try {
    const parsed = v.safeParse(outcomeSchema, JSON.parse(fromBase64Url(encoded)))
    return parsed.success ? parsed.output : null
  } catch {
    return null
  }
}

function toBase64Url(value: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(value: string): string {
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'))
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
}
