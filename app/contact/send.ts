import type { SourceValues } from '~/lib/visit-source'
import { submitContact } from './contact.functions'
import { HONEYPOT_FIELD, IDEMPOTENCY_KEY_FIELD } from './fields'
import type { EnquiryMessage } from './schema'
import { TURNSTILE_FIELD } from './turnstile'

/** True only for `{ ok: true }`: any refusal, failure or unexpected answer is false. A resend cannot make a second enquiry. */
export async function sendContact(
  message: EnquiryMessage,
  extra: { honeypot?: string; idempotencyKey?: string; turnstileToken?: string; source?: SourceValues } = {},
): Promise<boolean> {
  try {
    const answer = await submitContact({
      data: {
        ...extra.source,
        ...message,
        [HONEYPOT_FIELD]: extra.honeypot ?? '',
        [IDEMPOTENCY_KEY_FIELD]: extra.idempotencyKey,
        [TURNSTILE_FIELD]: extra.turnstileToken,
      },
    })
    // A middleware refusal arrives as the same JSON; anything else (a proxy's page) as the raw Response.
    return !(answer instanceof Response) && answer?.ok === true
  } catch {
    return false
  }
}
