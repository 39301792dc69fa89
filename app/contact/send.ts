import type { SourceValues } from '~/lib/visit-source'
import { submitContact } from './contact.functions'
import { HONEYPOT_FIELD, IDEMPOTENCY_KEY_FIELD } from './fields'
import type { ContactMessage } from './schema'
import { TURNSTILE_FIELD } from './turnstile'

/**
 * Sends a validated message through the server function. True only when the server answered
 * `{ ok: true }` (the enquiry is stored); any refusal, failure, unexpected answer or network
 * error is false. Sending again with the same key after a failure cannot make a second enquiry.
 */
export async function sendContact(
  message: ContactMessage,
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
    // A refusal by the request middleware (403, 413, 500) arrives as the same JSON shape; anything
    // that is not JSON (a proxy's page) arrives as the raw Response, whose own `ok` says nothing.
    return !(answer instanceof Response) && answer?.ok === true
  } catch {
    return false
  }
}
