/**
 * The receipt's words: a reference, what happens next, the withdraw link, and never what the
 * visitor typed but a name that reads as one, so it cannot carry someone's text to a stranger.
 */

/** The day and the first six characters of the random part. */
export function enquiryReference(id: string): string {
  const [day = '', random = ''] = id.split('-', 2)
  return random ? `${day}-${id.slice(day.length + 1, day.length + 7)}` : id.slice(0, 15)
}

/** Letters, marks, spaces, apostrophes, hyphens and dots, 60 at most; anything else greets without a name. */
export function greetingName(name: string): string | null {
  const clean = name.normalize('NFC').replace(/\s+/g, ' ').trim()
  if (clean.length === 0 || clean.length > 60) return null
  if (!/^[\p{L}\p{M}][\p{L}\p{M} '’.-]*$/u.test(clean)) return null
  if (/\p{L}\.\p{L}{2,}/u.test(clean)) return null // reads as a domain: "buy.example"
  return clean
}

export interface ReceiptContent {
  siteName: string
  enquiryId: string
  name: string
  receivedAt: string
  withdrawUrl: string
  linkUntil: Date
  contactEmail: string
}

const longDate = (date: Date) =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

export function receiptMessage(content: ReceiptContent): { subject: string; text: string } {
  const reference = enquiryReference(content.enquiryId)
  const name = greetingName(content.name)
  const text = [
    name ? `Hello ${name},` : 'Hello,',
    '',
    `Thank you for writing to ${content.siteName}. We have your enquiry, sent on ${longDate(new Date(content.receivedAt))}.`,
    `Your reference: ${reference}`,
    '',
    'What happens next: an engineer reads it and replies to this address within one business day (Monday to Friday).',
    '',
    'If you did not send it, or no longer want us to keep it, you can withdraw it and have it erased:',
    content.withdrawUrl,
    `This link works until ${longDate(content.linkUntil)}. After that, write to ${content.contactEmail} with your reference.`,
    '',
    `— ${content.siteName}`,
    '',
  ].join('\n')
  return { subject: `We have your enquiry (${reference}) — ${content.siteName}`, text }
}
