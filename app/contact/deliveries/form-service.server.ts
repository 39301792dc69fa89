import { type ContactValues, type Enquiry, pickValues } from '~/ledger'
import { isLoopbackHost } from '~/server/loopback'
import type { WorkerEnv } from '~/server/runtime.server'
import type { Delivery, DeliveryContext, DeliveryOutcome } from './types'

/** The spec's call, one request per attempt; no redirect followed, so the key never travels elsewhere. */
export const DEFAULT_FORM_ENDPOINT = 'https://api.web3forms.com/submit'
export const FORM_SERVICE_TIMEOUT_MS = 10_000
export const MAX_ANSWER_BYTES = 64 * 1024

/** Each field of the registry by its name, and the key. */
export type FormServicePayload = ContactValues & { access_key: string }

function accessKey(env: WorkerEnv): string {
  return env.CONTACT_FORM_ACCESS_KEY?.trim() ?? ''
}

export function formEndpoint(env: WorkerEnv): string {
  return env.CONTACT_FORM_ENDPOINT?.trim() || DEFAULT_FORM_ENDPOINT
}

/** `https:` only, so the key never travels in clear; `http:` to a loopback address alone (the tests' stand-in). */
export function endpointUrl(endpoint: string): URL | null {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return null
  }
  if (url.protocol === 'https:') return url
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url
  return null
}

export function formServicePayload(enquiry: Enquiry, key: string): FormServicePayload {
  return { ...pickValues(enquiry), access_key: key }
}

type BoundedBody = { text: string } | { tooLarge: true }

/** A longer body is cancelled and reported as too large. */
async function readBounded(response: Response, limit: number): Promise<BoundedBody> {
  if (!response.body) return { text: '' }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      reader.cancel().catch(() => {})
      return { tooLarge: true }
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return { text: new TextDecoder().decode(bytes) }
}

function discard(response: Response) {
  response.body?.cancel().catch(() => {})
}

export async function sendToFormService(
  enquiry: Enquiry,
  env: WorkerEnv,
  timeoutMs: number = FORM_SERVICE_TIMEOUT_MS,
): Promise<DeliveryOutcome> {
  const key = accessKey(env)
  if (!key) return { ok: false, cause: 'missing_access_key' }
  const endpoint = endpointUrl(formEndpoint(env))
  if (!endpoint) return { ok: false, cause: 'invalid_endpoint' }
  const host = endpoint.host

  const signal = AbortSignal.timeout(timeoutMs)
  const started = Date.now()
  const timing = () => ({ upstreamHost: host, upstreamMs: Date.now() - started })

  let response: Response
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(formServicePayload(enquiry, key)),
      redirect: 'manual',
      signal,
    })
  } catch {
    return { ok: false, cause: signal.aborted ? 'upstream_timeout' : 'upstream_unreachable', detail: timing() }
  }

  if (response.status < 200 || response.status > 299) {
    discard(response)
    return { ok: false, cause: 'upstream_status', detail: { ...timing(), upstreamStatus: response.status } }
  }

  let body: BoundedBody
  try {
    body = await readBounded(response, MAX_ANSWER_BYTES)
  } catch {
    return { ok: false, cause: signal.aborted ? 'upstream_timeout' : 'upstream_read_error', detail: timing() }
  }
  if ('tooLarge' in body) {
    return { ok: false, cause: 'upstream_answer_too_large', detail: { ...timing(), upstreamStatus: response.status } }
  }

  let answer: unknown
  try {
    answer = JSON.parse(body.text)
  } catch {
    return { ok: false, cause: 'upstream_not_json', detail: { ...timing(), upstreamStatus: response.status } }
  }
  const success = (answer as { success?: unknown } | null)?.success
  if (typeof success !== 'boolean') {
    return { ok: false, cause: 'upstream_unexpected_answer', detail: { ...timing(), upstreamStatus: response.status } }
  }
  if (!success)
    return { ok: false, cause: 'upstream_refused', detail: { ...timing(), upstreamStatus: response.status } }
  return { ok: true, detail: { ...timing(), upstreamStatus: response.status } }
}

export const formService: Delivery = {
  name: 'form-service',
  missing: (env) => [
    ...(accessKey(env) ? [] : ['CONTACT_FORM_ACCESS_KEY']),
    ...(endpointUrl(formEndpoint(env)) ? [] : ['CONTACT_FORM_ENDPOINT']),
  ],
  deliver: (enquiry: Enquiry, context: DeliveryContext) => sendToFormService(enquiry, context.env, context.timeoutMs),
}
