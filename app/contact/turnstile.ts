/** Turnstile's part the browser needs too (the check is `turnstile.server.ts`); held, never refused. */

/** The CSP allows this origin only while Turnstile is on. */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com'

/** Rendered explicitly, when the visitor first focuses the form. */
export const TURNSTILE_SCRIPT_URL = `${TURNSTILE_ORIGIN}/turnstile/v0/api.js?render=explicit`

/** The name the widget itself uses. */
export const TURNSTILE_FIELD = 'cf-turnstile-response'

/** Cloudflare's siteverify reference. */
export const TURNSTILE_TOKEN_MAX = 2048

/** siteverify must report it back. */
export const TURNSTILE_ACTION = 'contact'
