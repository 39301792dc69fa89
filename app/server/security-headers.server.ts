/**
 * Security headers for every response the Worker produces. Static files get the same set
 * (without the nonce) from public/_headers, which Cloudflare's asset server applies.
 */
import { isLoopbackHost } from './loopback'

/** A fresh, unguessable nonce for one response's inline scripts and styles. */
export function createNonce(): string {
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return btoa(String.fromCharCode(...bytes))
}

/** Turnstile's origin: its script and its challenge frame come from here (and nothing else does). */
const TURNSTILE_SOURCE = 'https://challenges.cloudflare.com'

/**
 * The Content-Security-Policy of a page. Scripts: same origin plus the per-response nonce
 * that Start stamps on its inline bootstrap scripts. Styles: same origin plus the nonce;
 * no inline style attributes are rendered by the server, and the few the browser sets later
 * (framer-motion's transforms) go through the CSSOM, which CSP does not restrict.
 * While Turnstile is on, its origin is added to `script-src` and `frame-src`, the two directives
 * Cloudflare documents, on every page: a visitor may reach /contact by an in-site navigation,
 * which keeps the first page's policy. The widget itself loads only on the contact form.
 * https://developers.cloudflare.com/turnstile/reference/content-security-policy/
 * `upgrade-insecure-requests` is left out only where `upgradesInsecureRequests` says so.
 */
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

/**
 * Whether a page served at `url` asks the browser to fetch its `http:` subresources over https
 * (`upgrade-insecure-requests`): always, except for a page served over plain http on a loopback
 * host (`isLoopbackHost`: localhost, 127.0.0.1, [::1]), which is what `npm start` and
 * `npm run dev` serve. There is no https server there to upgrade to, and WebKit (Safari), unlike
 * Chromium and Firefox, upgrades requests to http://localhost too: every stylesheet and script of
 * the page would then fail. A deployed Worker is never reached on a loopback host, and a page
 * served over https keeps the directive wherever it is.
 */
export function upgradesInsecureRequests(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url)
    return !(protocol === 'http:' && isLoopbackHost(hostname))
  } catch {
    return true
  }
}

/** Browser features the site never uses, all denied. */
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

/** Headers every response carries. */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': PERMISSIONS_POLICY,
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
}

/**
 * Cache policy for server-rendered HTML: only the visitor's browser may keep a copy, and it asks
 * again before every use. No shared cache may store it (each page carries its own CSP nonce),
 * and a returning visitor never runs an old page whose script chunks a newer deploy has replaced.
 * Nothing at the edge caches a Worker's answers unless the Worker asks it to; the per-isolate
 * page cache (html-cache.server.ts) is internal and does not change what is sent here.
 * Pages that show a visitor's own data (the contact page after a no-JavaScript post) and error
 * pages are not stored at all.
 */
export const HTML_CACHE_CONTROL = 'private, no-cache'
export const PRIVATE_CACHE_CONTROL = 'private, no-store'

/** Returns a response with the security headers applied (a copy when the original is immutable). */
export function withSecurityHeaders(
  response: Response,
  opts: {
    nonce?: string
    requestId: string
    privatePage?: boolean
    turnstile?: boolean
    /** false only for a page served over plain http on a loopback host (`upgradesInsecureRequests`). */
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
