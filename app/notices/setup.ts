import type { WorkerEnv } from '~/server/runtime.server'
import { alertAfter } from './alert'
import { digestHour } from './digest'
import { isPlainAddress } from './message'
import { MIN_SECRET_LENGTH } from './receipt-link'

/**
 * Which notices are on, and why not: for the inbox's set-up panel, `npm run enquiries -- setup`
 * and the cron. Names only, never a value.
 * - The digest and the alerts go to the company's address through the `send_email` binding
 *   (CONTACT_EMAIL) from CONTACT_EMAIL_FROM: off while either is missing.
 * - The receipt goes to the prospect, from RECEIPT_FROM (a domain onboarded to Email Sending),
 *   with a link signed with RECEIPT_LINK_SECRET: off unless both are set and the binding is bound.
 */
export interface NoticesSetup {
  /** The hour (UTC) of the daily digest, or why it is off. */
  digest: { on: true; hourUtc: number } | { on: false; why: string }
  /** After how many failures in a row an alert goes, or why alerts are off. */
  alerts: { on: true; after: number } | { on: false; why: string }
  receipt: { on: true; from: string } | { on: false; why: string }
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
            : { on: true, from },
  }
}

/** One line of the set-up: a label, its words, and the test id the inbox gives it. */
export interface NoticeSetupLine {
  id: string
  label: string
  value: string
}

/** The set-up as lines of words, the same in the inbox and in the terminal. */
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
      value: setup.receipt.on ? `on: from ${setup.receipt.from}, one a day per address` : `off: ${setup.receipt.why}`,
    },
  ]
}
