import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import type { Enquiry } from '../enquiry'
import { buildPlainTextEmail, isPlainAddress } from './email-message'
import type { Delivery, DeliveryContext, DeliveryOutcome } from './types'

/**
 * Cloudflare Email (`send_email` binding `CONTACT_EMAIL`): the enquiry goes to the company inbox
 * (`site.email`), from `CONTACT_EMAIL_FROM` on the site's domain, with Reply-To set to the visitor.
 */
export function enquirySubject(enquiry: Enquiry): string {
  return `New enquiry: ${enquiry.subjectLabel} — ${enquiry.name}`
}

export function enquiryText(enquiry: Enquiry): string {
  return [
    `New enquiry from the ${site.name} website contact form.`,
    `Reply to this e-mail to answer ${enquiry.name} directly.`,
    '',
    `Name:     ${enquiry.name}`,
    `Email:    ${enquiry.email}`,
    `Company:  ${enquiry.company || '—'}`,
    `Subject:  ${enquiry.subjectLabel} (${enquiry.subject})`,
    `Received: ${enquiry.receivedAt}`,
    `Id:       ${enquiry.id}`,
    '',
    'Message:',
    enquiry.message,
    '',
  ].join('\n')
}

/** The raw RFC 5322 message for an enquiry. */
export function enquiryEmail(enquiry: Enquiry, from: string, to: string = site.email): string {
  return buildPlainTextEmail({
    from: { address: from, name: `${site.name} website` },
    to: { address: to, name: site.name },
    replyTo: isPlainAddress(enquiry.email) ? { address: enquiry.email, name: enquiry.name } : undefined,
    subject: enquirySubject(enquiry),
    text: enquiryText(enquiry),
    date: new Date(enquiry.receivedAt),
    messageId: `enquiry.${enquiry.id}`,
  })
}

function sender(env: WorkerEnv): string {
  return env.CONTACT_EMAIL_FROM?.trim() ?? ''
}

export type EmailMessageConstructor = new (from: string, to: string, raw: string) => EmailMessage

async function loadEmailMessage(): Promise<EmailMessageConstructor> {
  const { EmailMessage } = await import('cloudflare:email')
  return EmailMessage
}

/**
 * Sends one message, built for the configured sender, to the company inbox (`site.email`) through
 * the `send_email` binding. A missing binding or sender, or a message that cannot be built, is a
 * cause, never an exception.
 */
async function sendToCompany(
  env: WorkerEnv,
  build: (from: string) => string,
  EmailMessageClass?: EmailMessageConstructor,
): Promise<DeliveryOutcome> {
  const binding = env.CONTACT_EMAIL
  if (!binding) return { ok: false, cause: 'missing_email_binding' }
  const from = sender(env)
  if (!isPlainAddress(from)) return { ok: false, cause: 'invalid_sender' }
  let raw: string
  try {
    raw = build(from)
  } catch {
    return { ok: false, cause: 'email_build_failed' }
  }
  try {
    const Message = EmailMessageClass ?? (await loadEmailMessage())
    await binding.send(new Message(from, site.email, raw))
    return { ok: true }
  } catch (error) {
    return { ok: false, cause: 'email_send_failed', detail: { errorName: (error as Error)?.name ?? 'unknown' } }
  }
}

/**
 * A message to the company inbox about an enquiry, such as the notice that one could not be
 * delivered. Reply-To is the visitor, so answering reaches them.
 */
export function sendOperatorEmail(
  env: WorkerEnv,
  message: { subject: string; text: string; replyTo: Pick<Enquiry, 'email' | 'name' | 'id'> },
  EmailMessageClass?: EmailMessageConstructor,
): Promise<DeliveryOutcome> {
  const { replyTo } = message
  return sendToCompany(
    env,
    (from) =>
      buildPlainTextEmail({
        from: { address: from, name: `${site.name} website` },
        to: { address: site.email, name: site.name },
        replyTo: isPlainAddress(replyTo.email) ? { address: replyTo.email, name: replyTo.name } : undefined,
        subject: message.subject,
        text: message.text,
        date: new Date(),
        messageId: `notice.${replyTo.id}.${Date.now()}`,
      }),
    EmailMessageClass,
  )
}

/** The `email` delivery: the enquiry itself, to the company inbox. */
export function sendEnquiryEmail(
  enquiry: Enquiry,
  env: WorkerEnv,
  EmailMessageClass?: EmailMessageConstructor,
): Promise<DeliveryOutcome> {
  return sendToCompany(env, (from) => enquiryEmail(enquiry, from), EmailMessageClass)
}

export const email: Delivery = {
  name: 'email',
  missing(env) {
    const missing: string[] = []
    if (!env.CONTACT_EMAIL) missing.push('CONTACT_EMAIL')
    if (!isPlainAddress(sender(env))) missing.push('CONTACT_EMAIL_FROM')
    return missing
  },
  deliver: (enquiry: Enquiry, context: DeliveryContext) => sendEnquiryEmail(enquiry, context.env),
}
