import { hmac, MIN_SECRET_LENGTH, sameSignature } from './receipt-link'

/** The e-mail's Confirm link (7 days) and Leave link (no expiry: a way out must not expire), each signature naming its purpose. */

export const CONFIRM_LINK_DAYS = 7

export interface EarlyAccessLinkFields {
  id: string
  until: string
  sig: string
}

const confirmText = (id: string, until: number) => `early-access-confirm\n${id}\n${until}`
const leaveText = (id: string) => `early-access-leave\n${id}`

export async function signConfirmLink(secret: string, id: string, now: Date): Promise<EarlyAccessLinkFields> {
  const until = Math.floor(now.getTime() / 1000) + CONFIRM_LINK_DAYS * 86_400
  return { id, until: String(until), sig: await hmac(secret, confirmText(id, until)) }
}

export async function signLeaveLink(secret: string, id: string): Promise<Pick<EarlyAccessLinkFields, 'id' | 'sig'>> {
  return { id, sig: await hmac(secret, leaveText(id)) }
}

export function linkUrl(origin: string, path: string, fields: Partial<EarlyAccessLinkFields>): string {
  const query = new URLSearchParams(Object.entries(fields).filter((pair): pair is [string, string] => !!pair[1]))
  return `${origin.replace(/\/+$/, '')}${path}?${query}`
}

/** As strings, cut short: the router or a form may hand over anything. */
export function earlyAccessFields(input: Record<string, unknown>): EarlyAccessLinkFields {
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')
  return { id: text(input.id).slice(0, 100), until: text(input.until).slice(0, 20), sig: text(input.sig).slice(0, 100) }
}

export type EarlyAccessLinkCheck = { ok: true; id: string } | { ok: false; reason: 'invalid' | 'expired' }

const wellFormed = (fields: { id: string; sig: string }) =>
  /^ea-[0-9a-f]{32}$/.test(fields.id) && /^[\w-]{43}$/.test(fields.sig)

/** The signature first: a forged link is `invalid` whatever its expiry says. */
export async function checkConfirmLink(
  secret: string,
  fields: EarlyAccessLinkFields,
  now: Date,
): Promise<EarlyAccessLinkCheck> {
  if (secret.length < MIN_SECRET_LENGTH || !wellFormed(fields) || !/^\d{1,12}$/.test(fields.until))
    return { ok: false, reason: 'invalid' }
  if (!sameSignature(await hmac(secret, confirmText(fields.id, Number(fields.until))), fields.sig))
    return { ok: false, reason: 'invalid' }
  if (Number(fields.until) * 1000 <= now.getTime()) return { ok: false, reason: 'expired' }
  return { ok: true, id: fields.id }
}

export async function checkLeaveLink(
  secret: string,
  fields: Pick<EarlyAccessLinkFields, 'id' | 'sig'>,
): Promise<EarlyAccessLinkCheck> {
  if (secret.length < MIN_SECRET_LENGTH || !wellFormed(fields)) return { ok: false, reason: 'invalid' }
  if (!sameSignature(await hmac(secret, leaveText(fields.id)), fields.sig)) return { ok: false, reason: 'invalid' }
  return { ok: true, id: fields.id }
}
