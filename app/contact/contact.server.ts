import type * as v from 'valibot'
import { log, requestIdFor } from '~/server/log.server'
import { planDelivery } from './deliveries/index.server'
import { keepInOutbox } from './deliveries/outbox.server'
import type { ContactEnv } from './deliveries/types'
import type { Enquiry } from './enquiry'
import { CONTACT_FIELDS, type ContactSubmission, fieldErrorsFrom, HONEYPOT_FIELD } from './schema'
import { type ContactAnswer, type ContactErrorCode, FAILURE_MESSAGE } from './status'
import { subjectLabel } from './subjects'

/** Seconds a rate-limited client is asked to wait: the limiter's period. */
export const RATE_LIMIT_PERIOD_SECONDS = 60

export interface ContactContext {
  env: ContactEnv
  request: Request
  /** Time-out for calls to other services (tests shorten it); production default 10 s. */
  timeoutMs?: number
}

export type SubmissionOutcome =
  | { kind: 'sent' }
  | { kind: 'ignored' }
  | { kind: 'rate_limited'; retryAfter: number }
  | { kind: 'failed'; cause: string }
  | { kind: 'not_configured' }

/** The client's address as Cloudflare reports it (`CF-Connecting-IP`). */
export function clientAddress(request: Request): string {
  return request.headers.get('CF-Connecting-IP')?.trim() || 'unknown'
}

/** A request served on this machine (wrangler dev, npm start, the tests), not from a deployment. */
export function isLocalRequest(request: Request): boolean {
  try {
    const { hostname } = new URL(request.url)
    return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]'
  } catch {
    return false
  }
}

function newEnquiry(input: ContactSubmission, now = new Date()): Enquiry {
  const receivedAt = now.toISOString()
  const random = crypto.getRandomValues(new Uint8Array(6))
  const suffix = Array.from(random, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return {
    id: `${receivedAt}-${suffix}`,
    receivedAt,
    name: input.name,
    email: input.email,
    company: input.company,
    subject: input.subject,
    subjectLabel: subjectLabel(input.subject),
    message: input.message,
  }
}

/** True when this client has used up its submissions for the current period. */
async function isRateLimited(env: ContactEnv, request: Request, requestId: string): Promise<boolean> {
  const limiter = env.CONTACT_RATE_LIMITER
  if (!limiter) {
    log('error', {
      event: 'contact_config',
      requestId,
      missing: 'CONTACT_RATE_LIMITER',
      message: 'No rate limiter bound',
    })
    return false
  }
  try {
    const { success } = await limiter.limit({ key: clientAddress(request) })
    return !success
  } catch (error) {
    log('error', { event: 'contact_config', requestId, cause: 'rate_limiter_error', errorName: (error as Error)?.name })
    return false
  }
}

function fallbackReason(missing: string[], requested: string): string {
  if (missing.includes('CONTACT_DELIVERY')) return `CONTACT_DELIVERY "${requested}" is not a known delivery`
  return `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set for the ${requested} delivery`
}

/**
 * Handles one valid submission: rate limit, honeypot, delivery, and the outbox when delivery fails.
 * Logs one line with the outcome (and, when the configuration falls back, one warning naming what
 * is missing). Logs never hold the message, the visitor's address or a secret.
 */
export async function submitEnquiry(input: ContactSubmission, context: ContactContext): Promise<SubmissionOutcome> {
  const { env, request } = context
  const requestId = requestIdFor(request)
  const started = Date.now()

  if (await isRateLimited(env, request, requestId)) {
    log('warn', { event: 'contact', requestId, outcome: 'rate_limited' })
    return { kind: 'rate_limited', retryAfter: RATE_LIMIT_PERIOD_SECONDS }
  }

  if (input[HONEYPOT_FIELD].trim() !== '') {
    log('info', { event: 'contact', requestId, outcome: 'ignored', cause: 'honeypot' })
    return { kind: 'ignored' }
  }

  const plan = planDelivery(env)
  const reason = plan.configured ? undefined : fallbackReason(plan.missing, plan.requested)
  if (!plan.configured) {
    log(plan.delivery ? 'warn' : 'error', {
      event: 'contact_config',
      requestId,
      requested: plan.requested,
      missing: plan.missing.join(','),
      fallback: plan.delivery?.name ?? 'none',
      message: plan.missing.includes('CONTACT_FORM_ACCESS_KEY')
        ? 'CONTACT_FORM_ACCESS_KEY is not set: enquiries are kept in the OUTBOX namespace. Set it with `npx wrangler secret put CONTACT_FORM_ACCESS_KEY`.'
        : `${reason}: enquiries are kept in the OUTBOX namespace.`,
    })
  }
  if (!plan.delivery) {
    log('error', { event: 'contact', requestId, outcome: 'failed', cause: 'not_configured' })
    return { kind: 'not_configured' }
  }

  const enquiry = newEnquiry(input)
  const local = isLocalRequest(request)
  const delivery = plan.delivery
  const result = await delivery.deliver(enquiry, { env, requestId, local, reason, timeoutMs: context.timeoutMs })
  if (result.ok) {
    log('info', {
      event: 'contact',
      requestId,
      outcome: 'sent',
      delivery: delivery.name,
      subject: enquiry.subject,
      ...result.detail,
      durationMs: Date.now() - started,
    })
    return { kind: 'sent' }
  }

  // Not delivered: keep it where the operator can recover it.
  let keptInOutbox = false
  if (delivery.name !== 'outbox' && env.OUTBOX) {
    const kept = await keepInOutbox(enquiry, env, `${delivery.name} failed: ${result.cause}`, local)
    keptInOutbox = kept.ok
  }
  log('error', {
    event: 'contact',
    requestId,
    outcome: 'failed',
    delivery: delivery.name,
    cause: result.cause,
    ...result.detail,
    keptInOutbox,
    durationMs: Date.now() - started,
  })
  return { kind: 'failed', cause: result.cause }
}

function json(body: ContactAnswer, status: number, requestId: string, headers: Record<string, string> = {}): Response {
  return Response.json(body, {
    status,
    headers: { 'Cache-Control': 'no-store', 'X-Request-Id': requestId, ...headers },
  })
}

export function errorAnswer(
  code: ContactErrorCode,
  status: number,
  requestId: string,
  extra: { fields?: Record<string, string>; headers?: Record<string, string>; message?: string } = {},
): Response {
  const body: ContactAnswer = { ok: false, error: code, message: extra.message ?? FAILURE_MESSAGE }
  if (extra.fields) body.fields = extra.fields
  return json(body, status, requestId, extra.headers)
}

/** The JSON answer for an outcome: 200, 429 with Retry-After, 502 or 503. */
export function outcomeAnswer(outcome: SubmissionOutcome, request: Request): Response {
  const requestId = requestIdFor(request)
  switch (outcome.kind) {
    case 'sent':
    case 'ignored':
      return json({ ok: true }, 200, requestId)
    case 'rate_limited':
      return errorAnswer('rate_limited', 429, requestId, { headers: { 'Retry-After': String(outcome.retryAfter) } })
    case 'failed':
      return errorAnswer('delivery_failed', 502, requestId)
    case 'not_configured':
      return errorAnswer('not_configured', 503, requestId)
  }
}

/** The per-field messages for refused input; logs one line naming the invalid fields (never values). */
export function refusedFields(issues: readonly v.BaseIssue<unknown>[], request: Request): Record<string, string> {
  const fieldErrors = fieldErrorsFrom(issues)
  const invalid = CONTACT_FIELDS.filter((field) => fieldErrors[field])
  const fields: Record<string, string> = { ...fieldErrors }
  if (invalid.length === 0) fields.body = 'Expected an object with name, email, company, subject and message.'
  log('info', {
    event: 'contact',
    requestId: requestIdFor(request),
    outcome: 'invalid',
    fields: invalid.join(',') || 'body',
  })
  return fields
}

/** 400 for input the schema refuses, naming each invalid field. */
export function invalidInputAnswer(issues: readonly v.BaseIssue<unknown>[], request: Request): Response {
  const fields = refusedFields(issues, request)
  return errorAnswer('invalid_input', 400, requestIdFor(request), {
    fields,
    message: 'Some fields are missing or invalid.',
  })
}
