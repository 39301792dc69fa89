import type { Enquiry } from '~/ledger'
import {
  enquirySubject,
  enquiryText,
  isPlainAddress,
  type PlainTextEmail,
  replyToVisitor,
  sendEmail,
  senderAddress,
  toCompany,
} from '~/notices/index.server'
import type { WorkerEnv } from '~/server/runtime.server'
import type { Delivery, DeliveryContext, DeliveryOutcome } from './types'

/** Cloudflare Email: the enquiry to the company mailbox through the mail room, Reply-To the visitor. */

export function enquiryEmail(enquiry: Enquiry, from: string): PlainTextEmail {
  return toCompany(
    { CONTACT_EMAIL_FROM: from },
    {
      replyTo: replyToVisitor(enquiry),
      subject: enquirySubject(enquiry),
      text: enquiryText(enquiry),
      date: new Date(enquiry.receivedAt),
      messageId: `enquiry.${enquiry.id}`,
    },
  )
}

export function sendEnquiryEmail(enquiry: Enquiry, env: WorkerEnv): Promise<DeliveryOutcome> {
  return sendEmail(env, enquiryEmail(enquiry, senderAddress(env)))
}

export const email: Delivery = {
  name: 'email',
  missing(env) {
    const missing: string[] = []
    if (!env.CONTACT_EMAIL) missing.push('CONTACT_EMAIL')
    if (!isPlainAddress(senderAddress(env))) missing.push('CONTACT_EMAIL_FROM')
    return missing
  },
  deliver: (enquiry: Enquiry, context: DeliveryContext) => sendEnquiryEmail(enquiry, context.env),
}
