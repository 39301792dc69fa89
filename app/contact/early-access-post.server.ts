import { earlyAccessForm } from '~/content/early-access'
import { EARLY_ACCESS_FIELDS } from '~/ledger'
import { earlyAccessSetup, isPlainAddress, signUpForEarlyAccess } from '~/notices/index.server'
import { seeOther } from '~/server/answer'
import { readFormBody } from '~/server/body-limit.server'
import { log, requestIdFor } from '~/server/log.server'
import { refusal, replyResponse } from '~/server/reply'
import type { WorkerRuntime } from '~/server/runtime.server'
import type { EarlyAccessFormResult, EarlyAccessPanel } from './early-access-result'
import { HONEYPOT_FIELD } from './fields'
import { isNavigation } from './form-post.server'
import { clientAddress, clientKeys, floodLimited } from './limits.server'
import { TURNSTILE_FIELD } from './turnstile'
import { turnstileHold, turnstileSetup, turnstileSiteKey } from './turnstile.server'

/** Where a post without JavaScript comes back to: the panel, with one of four fixed words. */
export const earlyAccessReturn = (result: EarlyAccessFormResult) =>
  `/products?early-access=${result}#${earlyAccessForm.id}`

export function earlyAccessPanel(env: WorkerRuntime['env']): EarlyAccessPanel {
  return { on: earlyAccessSetup(env).on, turnstileSiteKey: turnstileSiteKey(env) }
}

/** The panel's signup: flood limits and honeypot, Turnstile, then the ledger and the mail after the same answer for everyone. */
export async function handleEarlyAccessPost(request: Request, runtime: WorkerRuntime): Promise<Response> {
  const { env } = runtime
  const requestId = requestIdFor(request)
  const browser = isNavigation(request)
  const answer = (result: EarlyAccessFormResult, retryAfter?: number) => {
    const headers: [string, string][] = [['X-Request-Id', requestId]]
    if (retryAfter) headers.push(['Retry-After', String(retryAfter)])
    if (browser) return seeOther(earlyAccessReturn(result), headers)
    if (result === 'sent') return replyResponse({ status: 200, body: { ok: true } }, requestId)
    const reply =
      result === 'invalid'
        ? refusal('invalid_input', 400, 'The e-mail address is missing or invalid.', {
            fields: { email: EARLY_ACCESS_FIELDS.email.messages.invalid },
          })
        : result === 'busy'
          ? refusal('rate_limited', 429, earlyAccessForm.busy)
          : refusal('not_stored', 503, earlyAccessForm.failed)
    return replyResponse({ ...reply, headers: Object.fromEntries(headers) }, requestId)
  }
  if (!earlyAccessSetup(env).on) {
    log('info', { event: 'early_access', requestId, outcome: 'off' })
    return browser
      ? seeOther('/contact?subject=voice-ai')
      : replyResponse(refusal('early_access_off', 404, 'Early access updates are not offered: write to us instead.'))
  }
  const retryAfter = await floodLimited(env, request, requestId).catch(() => null)
  if (retryAfter !== null) {
    log('warn', { event: 'early_access', requestId, outcome: 'rate_limited' })
    return answer('busy', retryAfter)
  }
  const body = await readFormBody(request)
  if (!body.ok) return answer('invalid')
  const value = (name: string) => {
    const field = body.form.get(name)
    return typeof field === 'string' ? field : ''
  }
  const email = value('email').trim()
  if (email.length > EARLY_ACCESS_FIELDS.email.max || !isPlainAddress(email)) {
    log('info', { event: 'early_access', requestId, outcome: 'invalid' })
    return answer('invalid')
  }
  if (value(HONEYPOT_FIELD).trim() !== '') {
    log('info', { event: 'early_access', requestId, outcome: 'ignored', cause: 'honeypot' })
    return answer('sent')
  }
  const hold = await turnstileHold(env, value(TURNSTILE_FIELD) || undefined, {
    remoteIp: clientAddress(request),
    requestHost: new URL(request.url).hostname,
    requestId,
  })
  const turnstile = turnstileSetup(env).on ? (hold ? 'failed' : 'valid') : 'off'
  // After the answer: what the address's state is never shows in it, nor in how long it took.
  runtime.waitUntil(signUpForEarlyAccess(env, email, { network: clientKeys(request).network, turnstile }))
  return answer('sent')
}
