import { createIsomorphicFn } from '@tanstack/react-start'
import type { FormResult } from './form-result'
import { takeFormResult } from './form-result.server'
import { newEnquiryKey } from './schema'

export interface ContactFormState {
  /** The result of a form post made without JavaScript (server render only). */
  result: FormResult | null
  /** This form fill's idempotency key, in the form's hidden field from the first render. */
  enquiryKey: string
}

/** For the `/contact` route's loader: what the form starts with, on the server or in the browser. */
export const loadContactForm = createIsomorphicFn()
  .server((): ContactFormState => ({ result: takeFormResult(), enquiryKey: newEnquiryKey() }))
  .client((): ContactFormState => ({ result: null, enquiryKey: newEnquiryKey() }))
