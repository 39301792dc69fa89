/** One plain-text e-mail for `send_email`; no header carries CR or LF from its input (no injection). */

const CRLF = '\r\n'
/** An RFC 5322 dot-atom at a dotted domain, what a header carries unquoted; anything more stays in the body. */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
const ADDRESS = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*@[\\da-zA-Z]+(?:[.-][\\da-zA-Z]+)*\\.[a-zA-Z]{2,}$`, 'u')

export function isPlainAddress(address: string): boolean {
  return address.length <= 254 && ADDRESS.test(address)
}

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
/** 42 bytes → 56 base64 characters → a 68-character word: `Reply-To: ` and one word fit in 78. */
const WORD_BYTES = 42

/** Never splitting a character across two words. */
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

function unstructured(text: string): string[] {
  const clean = singleLine(text)
  return isAscii(clean) ? clean.split(' ') : encodeWords(clean)
}

function phrase(name: string): string[] {
  const clean = singleLine(name)
  if (isAscii(clean)) return [`"${clean.replace(/[\\"]/g, (c) => `\\${c}`)}"`]
  return encodeWords(clean)
}

export function mailbox(address: string, name?: string): string[] {
  if (!isPlainAddress(address)) throw new Error('not a plain e-mail address')
  const display = name ? singleLine(name) : ''
  return display ? [...phrase(display), `<${address}>`] : [address]
}

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

/** `Sat, 22 Nov 2025 08:39:00 +0000`. */
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
  /** Any line endings; sent as CRLF. */
  text: string
  date: Date
  /** Its left part; the sender's domain is appended. */
  messageId: string
  /** An https URL that unsubscribes with one POST (RFC 8058): `List-Unsubscribe` and `List-Unsubscribe-Post`. */
  oneClickUnsubscribe?: string
}

/** RFC 8058 asks for an https URI (http on this machine); no space or control can end up in the header. */
function unsubscribeHeaders(url: string): string[] {
  if (/[\s<>]/.test(url)) throw new Error('not an unsubscribe URL')
  const parsed = new URL(url)
  if (!['https:', 'http:'].includes(parsed.protocol) || parsed.href.length > 900 || /[\s<>]/.test(parsed.href))
    throw new Error('not an unsubscribe URL')
  return [`List-Unsubscribe: <${parsed.href}>`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click']
}

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
    ...(email.oneClickUnsubscribe ? unsubscribeHeaders(email.oneClickUnsubscribe) : []),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
  ]
  const text = email.text.replace(/\r\n|\r|\n/g, CRLF)
  return `${headers.join(CRLF)}${CRLF}${CRLF}${wrapBase64(text)}${CRLF}`
}
