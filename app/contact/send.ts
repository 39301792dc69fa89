import { submitContact } from './contact.functions'
import type { ContactMessage } from './schema'
import { ENQUIRY_KEY_FIELD, HONEYPOT_FIELD } from './schema'
import { TURNSTILE_FIELD } from './turnstile'

/**
 * Sends a validated message through the server function. True only when the server answered
 * `{ ok: true }` (the enquiry is stored); any refusal, failure status, unexpected answer or network
 * error is false. Sending again with the same key after a failure cannot make a second enquiry.
 */
export async function sendContact(
  message: ContactMessage,
  extra: { honeypot?: string; enquiryKey?: string; turnstileToken?: string } = {},
): Promise<boolean> {
  try {
    const answer: unknown = await submitContact({
      data: {
        ...message,
        [HONEYPOT_FIELD]: extra.honeypot ?? '',
        [ENQUIRY_KEY_FIELD]: extra.enquiryKey,
        [TURNSTILE_FIELD]: extra.turnstileToken,
      },
    })
    if (answer instanceof Response) {
      if (!answer.ok) return false
      const body: unknown = await answer.json().catch(() => null)
      return (body as { ok?: unknown } | null)?.ok === true
    }
    return (answer as { ok?: unknown } | null)?.ok === true
  } catch {
    return false
  }
}
