import { log } from '~/server/log.server'
import { isLoopbackHost } from '~/server/loopback'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { TURNSTILE_ACTION, TURNSTILE_ORIGIN } from './turnstile'

/** The token's check never refuses an enquiry: a missing, invalid or unverifiable token only holds it. */

export const SITEVERIFY_URL = `${TURNSTILE_ORIGIN}/turnstile/v0/siteverify`

export const SITEVERIFY_TIMEOUT_MS = 5_000

/** Stored in `held_reason`. */
export type HoldReason = 'turnstile_missing' | 'turnstile_invalid' | 'turnstile_unverified'

export type TurnstileSetup =
  | { on: true; siteKey: string; secretKey: string }
  /** `missing`: the half set without the other (both empty: off on purpose). */
  | { on: false; missing: string[] }

/** On with both keys; one without the other is off, and named for operators. */
export function turnstileSetup(env: WorkerEnv): TurnstileSetup {
  const siteKey = env.TURNSTILE_SITE_KEY?.trim() ?? ''
  const secretKey = env.TURNSTILE_SECRET_KEY?.trim() ?? ''
  if (siteKey && secretKey) return { on: true, siteKey, secretKey }
  const missing = siteKey ? ['TURNSTILE_SECRET_KEY'] : secretKey ? ['TURNSTILE_SITE_KEY'] : []
  return { on: false, missing }
}

/** Null while off: the form then loads no widget. */
export function turnstileSiteKey(env: WorkerEnv): string | null {
  const setup = turnstileSetup(env)
  return setup.on ? setup.siteKey : null
}

/** Cloudflare's siteverify, or a stand-in on this machine; null: an override refused. */
export function siteverifyUrl(env: WorkerEnv): string | null {
  const override = env.TURNSTILE_VERIFY_URL?.trim()
  if (!override) return SITEVERIFY_URL
  try {
    const url = new URL(override)
    if (['http:', 'https:'].includes(url.protocol) && isLoopbackHost(url.hostname) && !url.username && !url.password)
      return url.href
  } catch {}
  return null
}

export type TurnstileVerdict =
  | { ok: true }
  /** Where siteverify says the token was solved, when that is not one of the site's hosts. */
  | { ok: false; hold: HoldReason; cause: string; hostname?: string }

interface SiteverifyAnswer {
  success?: unknown
  action?: unknown
  hostname?: unknown
  'error-codes'?: unknown
}

const LOCAL_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1']

/** The canonical host, its `www.` twin, this post's own `*.workers.dev` host (never another Worker's), local names. */
export function siteHosts(requestHost: string): Set<string> {
  const canonical = new URL(site.url).hostname.toLowerCase()
  const bare = canonical.replace(/^www\./, '')
  const hosts = new Set([bare, `www.${bare}`])
  const host = requestHost.toLowerCase()
  if (host.endsWith('.workers.dev')) hosts.add(host)
  if (isLoopbackHost(host)) for (const name of LOCAL_NAMES) hosts.add(name)
  return hosts
}

/** The site's own secret is wrong: an operator's problem, not the visitor's. */
const SECRET_ERRORS = new Set(['missing-input-secret', 'invalid-input-secret'])

/** Never throws: every failure is a hold reason, with a cause for the log (never the token or the secret). */
export async function verifyTurnstile(
  setup: Extract<TurnstileSetup, { on: true }>,
  env: WorkerEnv,
  token: string | undefined,
  context: { remoteIp?: string; requestId: string; timeoutMs?: number; requestHost: string },
): Promise<TurnstileVerdict> {
  if (!token) return { ok: false, hold: 'turnstile_missing', cause: 'no_token' }
  const url = siteverifyUrl(env)
  if (!url) {
    log('error', { event: 'contact_config', requestId: context.requestId, cause: 'turnstile_verify_url_refused' })
    return { ok: false, hold: 'turnstile_unverified', cause: 'verify_url_refused' }
  }
  const body = new FormData()
  body.set('secret', setup.secretKey)
  body.set('response', token)
  if (context.remoteIp && context.remoteIp !== 'unknown') body.set('remoteip', context.remoteIp)
  const signal = AbortSignal.timeout(context.timeoutMs ?? SITEVERIFY_TIMEOUT_MS)
  let answer: SiteverifyAnswer
  try {
    const response = await fetch(url, { method: 'POST', body, signal })
    if (!response.ok) {
      await response.body?.cancel()
      return { ok: false, hold: 'turnstile_unverified', cause: `siteverify_status_${response.status}` }
    }
    answer = (await response.json()) as SiteverifyAnswer
  } catch {
    return {
      ok: false,
      hold: 'turnstile_unverified',
      cause: signal.aborted ? 'siteverify_timeout' : 'siteverify_unreachable',
    }
  }
  const codes = Array.isArray(answer?.['error-codes']) ? answer['error-codes'].map(String) : []
  if (answer?.success === true) {
    // A token of a widget rendered for another action (or for none) is not this form's.
    if (answer.action !== TURNSTILE_ACTION) return { ok: false, hold: 'turnstile_invalid', cause: 'wrong_action' }
    // A token solved on another site that shares the site key is not this site's.
    const hostname = typeof answer.hostname === 'string' ? answer.hostname.toLowerCase() : ''
    if (!siteHosts(context.requestHost).has(hostname))
      return { ok: false, hold: 'turnstile_invalid', cause: 'wrong_hostname', hostname: hostname.slice(0, 253) }
    return { ok: true }
  }
  if (codes.some((code) => SECRET_ERRORS.has(code))) {
    log('error', {
      event: 'contact_config',
      requestId: context.requestId,
      cause: 'turnstile_secret_refused',
      codes: codes.join(','),
    })
    return { ok: false, hold: 'turnstile_unverified', cause: codes.join(',') }
  }
  // Cloudflare's own failure: the token may be fine, so the enquiry waits for a person.
  if (codes.includes('internal-error')) return { ok: false, hold: 'turnstile_unverified', cause: 'internal-error' }
  if (answer?.success !== false) return { ok: false, hold: 'turnstile_unverified', cause: 'siteverify_bad_answer' }
  return { ok: false, hold: 'turnstile_invalid', cause: codes.join(',') || 'rejected' }
}

/** Null to deliver: Turnstile off (a half-set pair is logged), or its token verified. One log line when held. */
export async function turnstileHold(
  env: WorkerEnv,
  token: string | undefined,
  post: { remoteIp: string; requestHost: string; requestId: string; timeoutMs?: number },
): Promise<HoldReason | null> {
  const { requestId } = post
  const setup = turnstileSetup(env)
  if (!setup.on) {
    if (setup.missing.length > 0)
      log('warn', {
        event: 'contact_config',
        requestId,
        missing: setup.missing.join(','),
        message: 'Turnstile has one key without the other: it is off until both are set.',
      })
    return null
  }
  const verdict = await verifyTurnstile(setup, env, token, post)
  if (verdict.ok) return null
  const { hold, cause, hostname } = verdict
  log('info', { event: 'contact_turnstile', requestId, hold, cause, hostname })
  return verdict.hold
}
