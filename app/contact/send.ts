import { submitContact } from './contact.functions'
import type { ContactMessage } from './schema'
import { HONEYPOT_FIELD } from './schema'

/**
 * Sends a validated message through the server function. True only when the server answered
 * `{ ok: true }`; any refusal, failure status, unexpected answer or network error is false.
 */
export async function sendContact(message: ContactMessage, honeypot = ''): Promise<boolean> {
  try {
    const answer: unknown = await submitContact({ data: { ...message, [HONEYPOT_FIELD]: honeypot } })
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
