import { site } from '~/site'

/** The signup's words; the consent line and its version are one record (a new wording is a new version). */
export const EARLY_ACCESS_CONSENT = {
  version: 'v1',
  line: `We will e-mail you news of ${site.product.name}’s early access and of the other products in this panel, nothing else. Each e-mail has a link to leave the list in one press.`,
} as const

export const earlyAccessForm = {
  id: 'early-access',
  submit: 'Keep me posted',
  sending: 'Sending…',
  /** The same answer for every address, new, pending, confirmed or departed. */
  sent: 'Check your inbox: we have sent a link to confirm your address. Until you press Confirm on its page, we will not write to you.',
  busy: 'Too many requests from your network. Please try again in a minute.',
  failed: 'Something went wrong. Please try again in a few minutes.',
} as const
