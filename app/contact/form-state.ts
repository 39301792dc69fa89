import { createIsomorphicFn } from '@tanstack/react-start'
import type { SourceValues } from '~/lib/visit-source'
import { workerEnv } from '~/server/runtime.server'
import { newIdempotencyKey } from './fields'
import type { FormOutcome } from './status'
import { turnstileSiteKey } from './turnstile.server'

export interface ContactFormState {
  /** The result of a form post made without JavaScript (server render only). */
  result: FormOutcome | null
  /** This form fill's idempotency key, in the form's hidden field from the first render. */
  idempotencyKey: string
  /**
   * Turnstile's site key while it is on, null while it is off; undefined after an in-site
   * navigation (the browser does not know: the form asks the server when it is first focused).
   */
  turnstileSiteKey: string | null | undefined
  /**
   * Where the visit came from, as the contact page's request tells it (server render only): the
   * form's hidden fields, for a post without JavaScript. With JavaScript the tab's own record is sent.
   */
  source: SourceValues
}

/**
 * For the `/contact` route's loader: what the form starts with, on the server or in the browser.
 * Apart from `form-post.server.ts` because the loader runs in the browser too, in the route tree
 * every page loads: no valibot, no server module but in the `.server()` half, which Start strips.
 */
export const loadContactForm = createIsomorphicFn()
  .server(async (): Promise<ContactFormState> => {
    // Loaded when called: the round trip's module carries the whole submission path, which the
    // page's render needs only for this cookie.
    const roundTrip = await import('./form-post.server')
    return {
      result: roundTrip.takeFormOutcome(),
      idempotencyKey: newIdempotencyKey(),
      turnstileSiteKey: turnstileSiteKey(await workerEnv()),
      source: roundTrip.formSource(),
    }
  })
  .client(
    async (): Promise<ContactFormState> => ({
      result: null,
      idempotencyKey: newIdempotencyKey(),
      turnstileSiteKey: undefined,
      source: {},
    }),
  )
