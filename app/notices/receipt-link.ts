/** The receipt's withdraw link, signed with `RECEIPT_LINK_SECRET`; Web Crypto only, for the Worker and tests. */

export const RECEIPT_LINK_DAYS = 30
/** A shorter secret counts as unset (the receipt stays off). */
export const MIN_SECRET_LENGTH = 32

export const WITHDRAW_PATH = '/withdraw'

export interface WithdrawLink {
  id: string
  /** Unix seconds. */
  until: number
  sig: string
}

const encoder = new TextEncoder()

function base64url(bytes: ArrayBuffer): string {
  let binary = ''
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** HMAC-SHA-256 of `text`, base64url: every signed link's signature (the early-access links' too). */
export async function hmac(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
  return base64url(await crypto.subtle.sign('HMAC', key, encoder.encode(text)))
}

/** The purpose, the enquiry and the expiry: a signature fits no other use. */
const signed = (id: string, until: number) => `withdraw\n${id}\n${until}`

export async function signWithdrawLink(
  secret: string,
  id: string,
  now: Date,
  days = RECEIPT_LINK_DAYS,
): Promise<WithdrawLink> {
  const until = Math.floor(now.getTime() / 1000) + days * 86_400
  return { id, until, sig: await hmac(secret, signed(id, until)) }
}

export function withdrawUrl(origin: string, link: WithdrawLink): string {
  const query = new URLSearchParams({ id: link.id, until: String(link.until), sig: link.sig })
  return `${origin.replace(/\/+$/, '')}${WITHDRAW_PATH}?${query}`
}

export type LinkCheck = { ok: true; id: string } | { ok: false; reason: 'invalid' | 'expired' }

/** As strings: the router may hand over numbers. */
export function linkFields(input: Record<string, unknown>): { id: string; until: string; sig: string } {
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')
  return { id: text(input.id).slice(0, 100), until: text(input.until).slice(0, 20), sig: text(input.sig).slice(0, 100) }
}

/** The signature first (in constant time): a forged link is `invalid` whatever its expiry says. */
export async function checkWithdrawLink(
  secret: string,
  fields: { id: string; until: string; sig: string },
  now: Date,
): Promise<LinkCheck> {
  if (secret.length < MIN_SECRET_LENGTH) return { ok: false, reason: 'invalid' }
  if (!/^[\w-]{1,80}$/.test(fields.id) || !/^\d{1,12}$/.test(fields.until) || !/^[\w-]{43}$/.test(fields.sig))
    return { ok: false, reason: 'invalid' }
  if (!sameSignature(await hmac(secret, signed(fields.id, Number(fields.until))), fields.sig))
    return { ok: false, reason: 'invalid' }
  if (Number(fields.until) * 1000 <= now.getTime()) return { ok: false, reason: 'expired' }
  return { ok: true, id: fields.id }
}

/** In constant time, for signatures of one length (43 characters). */
export function sameSignature(expected: string, given: string): boolean {
  if (expected.length !== given.length) return false
  let diff = 0
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i)
  return diff === 0
}

/** For the one-receipt-a-day rule: an HMAC of the mailbox (`mailboxKey` in receipt.ts), never the address. */
export function recipientHash(secret: string, mailbox: string): Promise<string> {
  return hmac(secret, `recipient\n${mailbox.trim().toLowerCase()}`)
}

/** For the per-network daily cap: an HMAC of the network (/48 or /24), never the address. */
export function networkHash(secret: string, network: string): Promise<string> {
  return hmac(secret, `network\n${network}`)
}
