import * as v from 'valibot'
import { CONTACT_FIELDS, type ContactField, type ContactValues, MESSAGES, type MessageCode } from './schema'

/**
 * The result of a form post made without JavaScript travels from `POST /api/contact` to the
 * `/contact` page in a short-lived cookie, never in the URL: HttpOnly, SameSite=Strict,
 * Path=/contact, two minutes. The page's loader reads it on the server and clears it.
 *
 * The value is base64url-encoded JSON, split over numbered cookies when it is longer than one
 * cookie may be (a 5,000-character message): `contact_outcome_0` holds `<count>.<first part>`.
 *
 * It carries the visitor's values only when the enquiry was not stored (so nothing typed is lost),
 * and errors as message codes: the page shows its own words for them, never text from a cookie
 * (which a sibling subdomain could have set).
 */
export type FieldErrorCodes = Partial<Record<ContactField, MessageCode>>
export type FormResult =
  | { status: 'success' }
  | { status: 'failure'; values: ContactValues }
  | { status: 'invalid'; values: ContactValues; errors: FieldErrorCodes }

export const RESULT_COOKIE = 'contact_outcome_'
export const RESULT_PATH = '/contact'
export const RESULT_MAX_AGE_SECONDS = 120
const CHUNK_LENGTH = 3800
const MAX_CHUNKS = 10

const text = v.pipe(v.string(), v.maxLength(20_000))
const valuesSchema = v.object({ name: text, email: text, company: text, subject: text, message: text })
const code = v.picklist(Object.keys(MESSAGES) as [MessageCode, ...MessageCode[]])
const errorsSchema = v.partial(v.object({ name: code, email: code, company: code, subject: code, message: code }))
const resultSchema = v.variant('status', [
  v.object({ status: v.literal('success') }),
  v.object({ status: v.literal('failure'), values: valuesSchema }),
  v.object({ status: v.literal('invalid'), values: valuesSchema, errors: errorsSchema }),
])

function toBase64Url(value: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(value: string): string {
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'))
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
}

/** Only the form's fields, as strings. */
export function pickValues(source: Partial<Record<string, unknown>>): ContactValues {
  const values = {} as ContactValues
  for (const field of CONTACT_FIELDS) {
    const value = source[field]
    values[field] = typeof value === 'string' ? value : ''
  }
  return values
}

function attributes(maxAge: number, secure: boolean): string {
  return `Path=${RESULT_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`
}

/** `Set-Cookie` values carrying a result. */
export function resultCookies(result: FormResult, secure: boolean): string[] {
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
    return `${RESULT_COOKIE}${index}=${value}; ${attributes(RESULT_MAX_AGE_SECONDS, secure)}`
  })
}

/** The result held by the request's cookies, or null when there is none or it does not parse. */
export function readFormResult(cookies: Record<string, string | undefined>): FormResult | null {
  const first = cookies[`${RESULT_COOKIE}0`]
  const match = first?.match(/^(\d{1,2})\.(.*)$/)
  if (!match) return null
  const count = Number(match[1])
  if (count < 1 || count > MAX_CHUNKS) return null
  let encoded = match[2] ?? ''
  for (let i = 1; i < count; i++) {
    const part = cookies[`${RESULT_COOKIE}${i}`]
    if (part === undefined) return null
    encoded += part
  }
  try {
    const parsed = v.safeParse(resultSchema, JSON.parse(fromBase64Url(encoded)))
    return parsed.success ? (parsed.output as FormResult) : null
  } catch {
    return null
  }
}

/** `Set-Cookie` values that remove every result cookie the request carries. */
export function clearResultCookies(cookies: Record<string, string | undefined>, secure: boolean): string[] {
  return Object.keys(cookies)
    .filter((name) => name.startsWith(RESULT_COOKIE))
    .map((name) => `${name}=; ${attributes(0, secure)}`)
}

/** Parses a `Cookie` request header. */
export function parseCookieHeader(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null)
  if (!header) return cookies
  for (const part of header.split(';')) {
    const index = part.indexOf('=')
    if (index < 0) continue
    const name = part.slice(0, index).trim()
    if (name && !Object.hasOwn(cookies, name)) cookies[name] = part.slice(index + 1).trim()
  }
  return cookies
}
