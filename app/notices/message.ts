/**
 * A minimal RFC 5322 / MIME builder for one plain-text e-mail, as Cloudflare's `send_email`
 * binding expects it (`new EmailMessage(from, to, raw)`).
 *
 * Header values never carry CR or LF from their input (no header injection): control characters
 * become spaces, non-ASCII text is written as RFC 2047 encoded words, long headers are folded.
 * The body is UTF-8 in base64, wrapped at 76 characters, so no line is ever too long.
 */

const CRLF = '\r\n'
/**
 * A plain address: an RFC 5322 dot-atom local part (`o'brien`, `first.last+tag`) at a dotted
 * domain name. What a header may carry unquoted, and what senders must look like. The form accepts
 * a little more (what browsers accept, such as `a..b@host`); such an address is kept and delivered
 * in the message body, without a Reply-To.
 */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
const ADDRESS = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*@[\\da-zA-Z]+(?:[.-][\\da-zA-Z]+)*\\.[a-zA-Z]{2,}$`, 'u')

export function isPlainAddress(address: string): boolean {
  return address.length <= 254 && ADDRESS.test(address)
}

/** Header text on one line: control characters (CR and LF among them) become spaces. */
export function singleLine(value: string): string {
  return value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const encoder = new TextEncoder()
/** Bytes of UTF-8 per encoded word: 42 bytes → 56 base64 characters → a 68-character word, so
 * `Reply-To: ` and one word fit in 78 characters. */
const WORD_BYTES = 42

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`), never splitting a character across two words. */
export function encodeWords(text: string): string[] {
  const words: string[] = []
  let chunk = ''
  let chunkBytes = 0
  for (const char of text) {
    const size = encoder.encode(char).byteLength
    if (chunkBytes + size > WORD_BYTES && chunk) {
      words.push(`=?UTF-8?B?${toBase64(encoder.encode(chunk))}?=`)
      chunk = ''
      chunkBytes = 0
    }
    chunk += char
    chunkBytes += size
  }
  if (chunk) words.push(`=?UTF-8?B?${toBase64(encoder.encode(chunk))}?=`)
  return words
}

const isAscii = (text: string) => /^[\x20-\x7e]*$/.test(text)

/** Unstructured header text (Subject): ASCII words as they are, otherwise encoded words. */
function unstructured(text: string): string[] {
  const clean = singleLine(text)
  return isAscii(clean) ? clean.split(' ') : encodeWords(clean)
}

/** A display name as an RFC 5322 phrase: a quoted string when ASCII, encoded words otherwise. */
function phrase(name: string): string[] {
  const clean = singleLine(name)
  if (isAscii(clean)) return [`"${clean.replace(/[\\"]/g, (c) => `\\${c}`)}"`]
  return encodeWords(clean)
}

/** `Name <address>`; the address must already be a plain address. */
export function mailbox(address: string, name?: string): string[] {
  if (!isPlainAddress(address)) throw new Error('not a plain e-mail address')
  const display = name ? singleLine(name) : ''
  return display ? [...phrase(display), `<${address}>`] : [address]
}

/** One header field, folded: continuation lines start with a space. */
function header(field: string, pieces: string[]): string {
  const lines: string[] = []
  let line = `${field}:`
  for (const piece of pieces) {
    if (line.length + 1 + piece.length > 78 && line !== `${field}:`) {
      lines.push(line)
      line = ` ${piece}`
    } else {
      line = `${line} ${piece}`
    }
  }
  lines.push(line)
  return lines.join(CRLF)
}

/** RFC 5322 date-time in UTC, e.g. `Sat, 22 Nov 2025 08:39:00 +0000`. */
export function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000')
}

function wrapBase64(text: string): string {
  const encoded = toBase64(encoder.encode(text))
  const lines: string[] = []
  for (let i = 0; i < encoded.length; i += 76) lines.push(encoded.slice(i, i + 76))
  return lines.join(CRLF)
}

export interface PlainTextEmail {
  from: { address: string; name?: string }
  to: { address: string; name?: string }
  replyTo?: { address: string; name?: string }
  subject: string
  /** Plain text; any line endings, normalised to CRLF. */
  text: string
  date: Date
  /** Left part of the Message-ID; the sender's domain is appended. */
  messageId: string
}

/** The complete message, headers and body, with CRLF line endings. */
export function buildPlainTextEmail(email: PlainTextEmail): string {
  const domain = email.from.address.split('@')[1] ?? 'localhost'
  const idPart = email.messageId.replace(/[^\w.-]/g, '') || 'message'
  const headers = [
    header('From', mailbox(email.from.address, email.from.name)),
    header('To', mailbox(email.to.address, email.to.name)),
    ...(email.replyTo ? [header('Reply-To', mailbox(email.replyTo.address, email.replyTo.name))] : []),
    header('Subject', unstructured(email.subject)),
    `Date: ${rfc5322Date(email.date)}`,
    `Message-ID: <${idPart}@${domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
  ]
  const text = email.text.replace(/\r\n|\r|\n/g, CRLF)
  return `${headers.join(CRLF)}${CRLF}${CRLF}${wrapBase64(text)}${CRLF}`
}
