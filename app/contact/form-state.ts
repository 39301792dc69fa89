import { createIsomorphicFn } from '@tanstack/react-start'
import { newEnquiryKey } from './enquiry-key'
import type { FormResult } from './form-result'
import { takeFormResult } from './form-result.server'
import { workerEnv } from './runtime.server'
import { turnstileSiteKey } from './turnstile.server'

export interface ContactFormState {
  /** The result of a form post made without JavaScript (server render only). */
  result: FormResult | null
  /** This form fill's idempotency key, in the form's hidden field from the first render. */
  enquiryKey: string
  /**
   * Turnstile's site key while it is on, null while it is off; undefined after an in-site
   * navigation (the browser does not know: the form asks the server when it is first focused).
   */
  turnstileSiteKey: string | null | undefined
}

/** For the `/contact` route's loader: what the form starts with, on the server or in the browser. */
export const loadContactForm = createIsomorphicFn()
  .server(
    async (): Promise<ContactFormState> => ({
      result: takeFormResult(),
      enquiryKey: newEnquiryKey(),
      turnstileSiteKey: turnstileSiteKey(await workerEnv()),
    }),
  )
  .client(
    async (): Promise<ContactFormState> => ({ result: null, enquiryKey: newEnquiryKey(), turnstileSiteKey: undefined }),
  )
