import { createIsomorphicFn } from '@tanstack/react-start'
import type { SourceValues } from '~/lib/visit-source'
import { workerEnv } from '~/server/runtime.server'
import { newIdempotencyKey } from './enquiry-key'
import type { FormOutcome } from './status'
import { turnstileSiteKey } from './turnstile.server'

export interface ContactFormState {
  /** Server render only. */
  result: FormOutcome | null
  idempotencyKey: string
  /** Null while Turnstile is off; undefined after an in-site navigation (the form asks when first focused). */
  turnstileSiteKey: string | null | undefined
  /** As the page's request tells it (server render only), for a post without JavaScript; with it, the tab's record is sent. */
  source: SourceValues
}

/** The `/contact` route's loader, in every page's route tree: no valibot, server code only in `.server()`. */
export const loadContactForm = createIsomorphicFn()
  .server(async (): Promise<ContactFormState> => {
    // Loaded when called: the round trip's module carries the whole path an enquiry takes.
    const roundTrip = await import('./form-post.server')
    const idempotencyKey = newIdempotencyKey()
    return {
      result: roundTrip.takeFormOutcome(idempotencyKey),
      idempotencyKey,
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
