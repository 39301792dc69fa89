/** The receipt's words, never what the visitor typed but a name, so it cannot carry text to a stranger. */

/** The day and the first six characters of the random part. */
export function enquiryReference(id: string): string {
  const [day = '', random = ''] = id.split('-', 2)
  return random ? `${day}-${id.slice(day.length + 1, day.length + 7)}` : id.slice(0, 15)
}

export const GREETING_NAME_MAX = 30

/** The first word of a name that reads as one, else no name: a stranger cannot put a sentence of their own
 * into a mail from the company's domain. */
export function greetingName(name: string): string | null {
  const clean = name.normalize('NFC').replace(/\s+/g, ' ').trim()
  if (clean.length === 0 || clean.length > GREETING_NAME_MAX) return null
  if (!/^[\p{L}\p{M}][\p{L}\p{M} '’.-]*$/u.test(clean)) return null
  if (/\p{L}\.\p{L}{2,}/u.test(clean)) return null // reads as a domain: "buy.example"
  const words = clean.split(' ')
  if (words.length > 3) return null
  return words[0] ?? null
}

/** Providers that deliver `a.b.c@` to `abc@`: Gmail and googlemail.com
 * (https://support.google.com/mail/answer/7436150); others keep dots meaningful, or do not say. */
export const DOT_BLIND_DOMAINS: Readonly<Record<string, string>> = {
  'gmail.com': 'gmail.com',
  'googlemail.com': 'gmail.com',
}

/** One mailbox however it is spelled, for one receipt a day: lower case, a `+tag` dropped (RFC 5233), and
 * dots where the provider ignores them. */
export function mailboxKey(address: string): string {
  const trimmed = address.trim().toLowerCase()
  const at = trimmed.lastIndexOf('@')
  if (at < 1) return trimmed
  let local = trimmed.slice(0, at)
  let domain = trimmed.slice(at + 1).replace(/\.$/, '')
  const plus = local.indexOf('+')
  if (plus > 0) local = local.slice(0, plus)
  const canonical = DOT_BLIND_DOMAINS[domain]
  if (canonical) {
    domain = canonical
    local = local.replaceAll('.', '')
  }
  return `${local}@${domain}`
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
