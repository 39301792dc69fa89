import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose'
import { isLoopbackHost } from '~/server/loopback'
import type { WorkerEnv } from '~/server/runtime.server'

/** Who may open the desk: the Worker verifies the Access token itself rather than trust that Access is in
 * front, since a route left unprotected would open it. */
export const ACCESS_HEADER = 'Cf-Access-Jwt-Assertion'

/** Besides Access: the allow-list's size, or the written reason there is none. */
export type DeskFence = { allowList: number } | { policyOnly: string | null }

export function deskFence(env: WorkerEnv): DeskFence {
  const allowed = (env.ACCESS_ALLOWED_EMAILS ?? '').split(',').filter((email) => email.trim())
  if (allowed.length) return { allowList: allowed.length }
  return { policyOnly: env.ACCESS_POLICY_ONLY_REASON?.trim() || null }
}

export interface AccessConfig {
  issuer: string
  audience: string
  certsUrl: URL
  allowedEmails: string[] | null
}

export type AccessDenial =
  | 'not_configured'
  | 'bad_certs_url'
  | 'no_token'
  | 'invalid_token'
  | 'no_email'
  | 'no_subject'
  | 'not_allowed'
  | 'keys_unavailable'

/** Let in: the e-mail (shown to them, stored as who acted) and `id`, the token's `sub`, for log lines. */
export type AccessOutcome = { ok: true; email: string; id: string } | { ok: false; reason: AccessDenial }

const TEAM_DOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/

/** Or why there is none: the desk then refuses everyone. */
export function accessConfig(env: WorkerEnv): AccessConfig | { error: 'not_configured' | 'bad_certs_url' } {
  const team = env.ACCESS_TEAM_DOMAIN?.trim()
    .toLowerCase()
    .replace(/^https:\/\//, '')
    .replace(/\/$/, '')
  const audience = env.ACCESS_AUD?.trim()
  if (!team || !audience || !TEAM_DOMAIN.test(team)) return { error: 'not_configured' }
  let certsUrl = new URL(`https://${team}/cdn-cgi/access/certs`)
  const override = env.ACCESS_CERTS_URL?.trim()
  if (override) {
    let url: URL
    try {
      url = new URL(override)
    } catch {
      return { error: 'bad_certs_url' }
    }
    // Only a key server on this machine may stand in for the team's; never another host.
    if (!['http:', 'https:'].includes(url.protocol) || !isLoopbackHost(url.hostname) || url.username || url.password)
      return { error: 'bad_certs_url' }
    certsUrl = url
  }
  const allowed = (env.ACCESS_ALLOWED_EMAILS ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean)
  return { issuer: `https://${team}`, audience, certsUrl, allowedEmails: allowed.length ? allowed : null }
}

// One key set per certs URL for the isolate's life: jose refetches when a token names an unknown key.
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>()

function keySet(url: URL) {
  let keys = keySets.get(url.href)
  if (!keys) {
    keys = createRemoteJWKSet(url, { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 })
    keySets.set(url.href, keys)
  }
  return keys
}

export async function verifyAccessToken(token: string | null | undefined, env: WorkerEnv): Promise<AccessOutcome> {
  const config = accessConfig(env)
  if ('error' in config) return { ok: false, reason: config.error }
  if (!token) return { ok: false, reason: 'no_token' }
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(token, keySet(config.certsUrl), {
      algorithms: ['RS256'],
      audience: config.audience,
      issuer: config.issuer,
      requiredClaims: ['exp'],
    }))
  } catch (error) {
    // No code: the key server could not be reached. ERR_JOSE_GENERIC: it answered, but not 200.
    const code = (error as { code?: string })?.code
    const keysUnavailable = !code || /^ERR_(JWKS_TIMEOUT|JWKS_INVALID|JOSE_GENERIC)$/.test(code)
    return { ok: false, reason: keysUnavailable ? 'keys_unavailable' : 'invalid_token' }
  }
  const email = typeof payload.email === 'string' ? payload.email.trim() : ''
  if (!email) return { ok: false, reason: 'no_email' }
  if (config.allowedEmails && !config.allowedEmails.includes(email.toLowerCase()))
    return { ok: false, reason: 'not_allowed' }
  const id = typeof payload.sub === 'string' ? payload.sub.trim() : ''
  if (!id) return { ok: false, reason: 'no_subject' }
  return { ok: true, email, id }
}

export function verifyAccess(request: Request, env: WorkerEnv): Promise<AccessOutcome> {
  return verifyAccessToken(request.headers.get(ACCESS_HEADER), env)
}
