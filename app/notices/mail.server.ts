import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { buildPlainTextEmail, isPlainAddress, type PlainTextEmail } from './message'

/** Every e-mail the Worker sends goes through `sendEmail` and the `send_email` binding. */

export type EmailMessageConstructor = new (from: string, to: string, raw: string) => EmailMessage

/** `error`: what failed, for a caller that reports it. */
export type MailOutcome = { ok: true } | { ok: false; cause: string; detail?: { errorName: string }; error?: unknown }

async function loadEmailMessage(): Promise<EmailMessageConstructor> {
  const { EmailMessage } = await import('cloudflare:email')
  return EmailMessage
}

/** Never throws: what goes wrong is a cause. */
export async function sendEmail(
  env: WorkerEnv,
  mail: PlainTextEmail,
  EmailMessageClass?: EmailMessageConstructor,
): Promise<MailOutcome> {
  const binding = env.CONTACT_EMAIL
  if (!binding) return { ok: false, cause: 'missing_email_binding' }
  if (!isPlainAddress(mail.from.address)) return { ok: false, cause: 'invalid_sender' }
  if (!isPlainAddress(mail.to.address)) return { ok: false, cause: 'invalid_recipient' }
  let raw: string
  try {
    raw = buildPlainTextEmail(mail)
  } catch (error) {
    return { ok: false, cause: 'email_build_failed', error }
  }
  try {
    const Message = EmailMessageClass ?? (await loadEmailMessage())
    await binding.send(new Message(mail.from.address, mail.to.address, raw))
    return { ok: true }
  } catch (error) {
    const errorName = (error as Error)?.name ?? 'unknown'
    return { ok: false, cause: 'email_send_failed', detail: { errorName }, error }
  }
}

/** `CONTACT_EMAIL_FROM`, on a domain with Email Routing. */
export const senderAddress = (env: WorkerEnv): string => env.CONTACT_EMAIL_FROM?.trim() ?? ''

export function toCompany(
  env: WorkerEnv,
  message: Pick<PlainTextEmail, 'subject' | 'text' | 'messageId' | 'replyTo'> & { date?: Date },
): PlainTextEmail {
  return {
    from: { address: senderAddress(env), name: `${site.name} website` },
    to: { address: site.email, name: site.name },
    date: new Date(),
    ...message,
  }
}
