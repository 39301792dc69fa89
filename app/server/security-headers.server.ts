/** Headers for every response the Worker makes; static files get the same (no nonce) from public/_headers. */
import { isLoopbackHost } from './loopback'

export function createNonce(): string {
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return btoa(String.fromCharCode(...bytes))
}

const TURNSTILE_SOURCE = 'https://challenges.cloudflare.com'

/** Same origin plus the per-response nonce; with Turnstile on its origin is allowed on every page, as an
 * in-site navigation to /contact keeps the first page's policy. */
export function contentSecurityPolicy(
  nonce: string,
  options: { turnstile?: boolean; upgradeInsecureRequests?: boolean } = {},
): string {
  const turnstile = options.turnstile ? ` ${TURNSTILE_SOURCE}` : ''
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${turnstile}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "media-src 'self'",
    "worker-src 'self'",
    options.turnstile ? `frame-src${turnstile}` : "frame-src 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    ...(options.upgradeInsecureRequests === false ? [] : ['upgrade-insecure-requests']),
  ].join('; ')
}

/** Not over plain http on loopback (`npm start`): WebKit upgrades http://localhost too, failing every asset. */
export function upgradesInsecureRequests(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url)
    return !(protocol === 'http:' && isLoopbackHost(hostname))
  } catch {
    return true
  }
}

export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'encrypted-media=()',
  'fullscreen=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'picture-in-picture=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
  'browsing-topics=()',
].join(', ')

export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': PERMISSIONS_POLICY,
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
}

/** Only the browser keeps a copy, revalidated: a page's nonce and chunks must not outlive a deploy. */
export const HTML_CACHE_CONTROL = 'private, no-cache'
export const PRIVATE_CACHE_CONTROL = 'private, no-store'

export function withSecurityHeaders(
  response: Response,
  opts: {
    nonce?: string
    requestId: string
    privatePage?: boolean
    turnstile?: boolean
    /** False only over plain http on a loopback host. */
    upgradeInsecureRequests?: boolean
  },
): Response {
  let res = response
  try {
    res.headers.set('X-Request-Id', opts.requestId)
  } catch {
    res = new Response(response.body, response)
    res.headers.set('X-Request-Id', opts.requestId)
  }
  for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS)) res.headers.set(name, value)
  const type = res.headers.get('Content-Type') ?? ''
  if (type.includes('text/html')) {
    if (opts.nonce)
      res.headers.set(
        'Content-Security-Policy',
        contentSecurityPolicy(opts.nonce, {
          turnstile: opts.turnstile,
          upgradeInsecureRequests: opts.upgradeInsecureRequests,
        }),
      )
    if (!res.headers.has('Cache-Control') || opts.privatePage) {
      res.headers.set(
        'Cache-Control',
        opts.privatePage || res.status !== 200 ? PRIVATE_CACHE_CONTROL : HTML_CACHE_CONTROL,
      )
    }
  } else {
    // JSON, text and other answers: nothing to run, nothing to embed.
    res.headers.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'")
    if (!res.headers.has('Cache-Control')) res.headers.set('Cache-Control', 'no-store')
  }
  return res
}
