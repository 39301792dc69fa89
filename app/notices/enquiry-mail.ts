import { type Enquiry, type EnquiryRecord, fieldLines } from '~/ledger'
import { site } from '~/site'
import { isPlainAddress } from './message'

/** Reply-To is the visitor when a header can carry the address. */

export function enquirySubject(enquiry: Enquiry): string {
  return `New enquiry: ${enquiry.subjectLabel} — ${enquiry.name}`
}

export function enquiryText(enquiry: Enquiry): string {
  return [
    `New enquiry from the ${site.name} website contact form.`,
    `Reply to this e-mail to answer ${enquiry.name} directly.`,
    '',
    ...fieldLines(enquiry),
    `Subject:  ${enquiry.subjectLabel} (${enquiry.subject})`,
    `Received: ${enquiry.receivedAt}`,
    `Id:       ${enquiry.id}`,
    '',
    'Message:',
    enquiry.message,
    '',
  ].join('\n')
}

export const replyToVisitor = (enquiry: Pick<Enquiry, 'email' | 'name'>) =>
  isPlainAddress(enquiry.email) ? { address: enquiry.email, name: enquiry.name } : undefined

/** It holds the enquiry itself, so whoever reads it has the enquiry. */
export function giveUpMessage(
  record: EnquiryRecord,
  cause: string,
  attempts: number,
): { subject: string; text: string } {
  const text = [
    `An enquiry from the ${site.name} website could not be delivered after ${attempts} attempts.`,
    `Last cause: ${cause}. It is kept in the enquiry database as "failed" (npm run enquiries -- --remote show ${record.id}).`,
    '',
    enquiryText(record),
  ].join('\n')
  return { subject: `Enquiry not delivered: ${record.subjectLabel} — ${record.name}`, text }
}
