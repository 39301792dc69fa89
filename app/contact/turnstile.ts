/**
 * Cloudflare Turnstile on the contact form, the parts both sides know. It is optional: on when the
 * site key (a var) and the secret key (a secret) are both set, off otherwise. The widget's token is
 * checked by the server (`turnstile.server.ts`); an enquiry without a valid one is stored as held,
 * never refused. https://developers.cloudflare.com/turnstile/
 *
 * Two files because the form in the browser needs these names and nothing of the check, whose
 * module reads secrets and calls siteverify.
 */

/** Where the widget's script comes from; the CSP allows this origin only while Turnstile is on. */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com'

/** The widget's script, rendered explicitly by the form when the visitor first focuses it. */
export const TURNSTILE_SCRIPT_URL = `${TURNSTILE_ORIGIN}/turnstile/v0/api.js?render=explicit`

/** The form field that carries the widget's token (the name the widget itself uses). */
export const TURNSTILE_FIELD = 'cf-turnstile-response'

/** Tokens are at most 2048 characters (Cloudflare's siteverify reference). */
export const TURNSTILE_TOKEN_MAX = 2048

/** The action the widget is rendered with, and that siteverify must report back. */
export const TURNSTILE_ACTION = 'contact'
