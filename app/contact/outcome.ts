import { createIsomorphicFn } from '@tanstack/react-start'
import { takeFormOutcome } from './outcome.server'
import type { FormOutcome } from './outcome-cookie'
import { newEnquiryKey } from './schema'

export interface ContactFormState {
  /** The outcome of a form post made without JavaScript (server render only). */
  outcome: FormOutcome | null
  /** This form fill's idempotency key, in the form's hidden field from the first render. */
  enquiryKey: string
}

/** For the `/contact` route's loader: what the form starts with, on the server or in the browser. */
export const loadContactForm = createIsomorphicFn()
  .server((): ContactFormState => ({ outcome: takeFormOutcome(), enquiryKey: newEnquiryKey() }))
  .client((): ContactFormState => ({ outcome: null, enquiryKey: newEnquiryKey() }))
