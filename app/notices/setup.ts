import type { WorkerEnv } from '~/server/runtime.server'
import { alertAfter } from './alert'
import { digestHour } from './digest'
import { isPlainAddress } from './message'
import { MIN_SECRET_LENGTH } from './receipt-link'

/** Which notices are on, and why not (names only, never a value). */
export interface NoticesSetup {
  digest: { on: true; hourUtc: number } | { on: false; why: string }
  alerts: { on: true; after: number } | { on: false; why: string }
  receipt: { on: true; from: string; perNetwork: number; perSite: number } | { on: false; why: string }
  /** The early-access confirmation: the receipts' caps, counted apart. Off: the panel's button opens the contact form. */
  earlyAccess: { on: true; from: string; perNetwork: number; perSite: number } | { on: false; why: string }
}

/** Receipts a UTC day to one network (/48 or /24), and to everyone: `RECEIPTS_PER_NETWORK_DAY`, `RECEIPTS_PER_SITE_DAY`. */
export const RECEIPT_CAP_DEFAULTS = { perNetwork: 10, perSite: 200 } as const

/** A whole number from 1 to 100,000, else the default. */
function capOf(value: string | undefined, fallback: number): number {
  const text = value?.trim() ?? ''
  const parsed = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN
  return parsed >= 1 && parsed <= 100_000 ? parsed : fallback
}

/** Needs the binding, EARLY_ACCESS_FROM (a domain onboarded to Email Sending) and EARLY_ACCESS_LINK_SECRET. */
export function earlyAccessSetup(env: WorkerEnv): NoticesSetup['earlyAccess'] {
  const from = env.EARLY_ACCESS_FROM?.trim() ?? ''
  const secret = env.EARLY_ACCESS_LINK_SECRET ?? ''
  if (!env.CONTACT_EMAIL) return { on: false, why: 'the send_email binding CONTACT_EMAIL is not bound' }
  if (!from) return { on: false, why: 'EARLY_ACCESS_FROM is not set' }
  if (!isPlainAddress(from)) return { on: false, why: 'EARLY_ACCESS_FROM is not an address' }
  if (secret.length < MIN_SECRET_LENGTH)
    return { on: false, why: `EARLY_ACCESS_LINK_SECRET is not set (${MIN_SECRET_LENGTH} characters or more)` }
  return {
    on: true,
    from,
    perNetwork: capOf(env.RECEIPTS_PER_NETWORK_DAY, RECEIPT_CAP_DEFAULTS.perNetwork),
    perSite: capOf(env.RECEIPTS_PER_SITE_DAY, RECEIPT_CAP_DEFAULTS.perSite),
  }
}

export function noticesSetup(env: WorkerEnv): NoticesSetup {
  const mail = !env.CONTACT_EMAIL
    ? 'the send_email binding CONTACT_EMAIL is not bound'
    : !isPlainAddress(env.CONTACT_EMAIL_FROM?.trim() ?? '')
      ? 'CONTACT_EMAIL_FROM is not set to an address'
      : null
  const hour = digestHour(env.DIGEST_HOUR_UTC)
  const after = alertAfter(env.ALERT_AFTER_FAILURES)
  const from = env.RECEIPT_FROM?.trim() ?? ''
  const secret = env.RECEIPT_LINK_SECRET ?? ''
  return {
    digest: mail
      ? { on: false, why: mail }
      : hour === null
        ? { on: false, why: 'DIGEST_HOUR_UTC is off (or not an hour from 0 to 23)' }
        : { on: true, hourUtc: hour },
    alerts: mail
      ? { on: false, why: mail }
      : after === null
        ? { on: false, why: 'ALERT_AFTER_FAILURES is off (or not a number from 2 to 50)' }
        : { on: true, after },
    receipt: !env.CONTACT_EMAIL
      ? { on: false, why: 'the send_email binding CONTACT_EMAIL is not bound' }
      : !from
        ? { on: false, why: 'RECEIPT_FROM is not set' }
        : !isPlainAddress(from)
          ? { on: false, why: 'RECEIPT_FROM is not an address' }
          : secret.length < MIN_SECRET_LENGTH
            ? { on: false, why: `RECEIPT_LINK_SECRET is not set (${MIN_SECRET_LENGTH} characters or more)` }
            : {
                on: true,
                from,
                perNetwork: capOf(env.RECEIPTS_PER_NETWORK_DAY, RECEIPT_CAP_DEFAULTS.perNetwork),
                perSite: capOf(env.RECEIPTS_PER_SITE_DAY, RECEIPT_CAP_DEFAULTS.perSite),
              },
    earlyAccess: earlyAccessSetup(env),
  }
}

/** `id`: the test id the desk gives it. */
export interface NoticeSetupLine {
  id: string
  label: string
  value: string
}

export function noticesSetupLines(setup: NoticesSetup, companyEmail: string): NoticeSetupLine[] {
  return [
    {
      id: 'setup-digest',
      label: 'Daily digest',
      value: setup.digest.on
        ? `on: to ${companyEmail}, daily from ${String(setup.digest.hourUtc).padStart(2, '0')}:00 UTC`
        : `off: ${setup.digest.why}`,
    },
    {
      id: 'setup-alerts',
      label: 'Delivery alerts',
      value: setup.alerts.on
        ? `on: to ${companyEmail}, after ${setup.alerts.after} enquiries in a row fail for one cause, at most one an hour per cause`
        : `off: ${setup.alerts.why}`,
    },
    {
      id: 'setup-receipt',
      label: 'Receipt to the sender',
      value: setup.receipt.on
        ? `on: from ${setup.receipt.from}, one a day per address, at most ${setup.receipt.perNetwork} a day per network and ${setup.receipt.perSite} a day in all`
        : `off: ${setup.receipt.why}`,
    },
    {
      id: 'setup-early-access',
      label: 'Early access signup',
      value: setup.earlyAccess.on
        ? `on: confirmation from ${setup.earlyAccess.from}, one a day per address, at most ${setup.earlyAccess.perNetwork} a day per network and ${setup.earlyAccess.perSite} a day in all`
        : `off: ${setup.earlyAccess.why}; the products page's button opens the contact form`,
    },
  ]
}
