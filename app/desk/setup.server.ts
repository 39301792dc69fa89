import {
  HELD_CEILING_PER_HOUR,
  HELD_PER_HOUR,
  healthReport,
  webhookSetup,
  webhookSetupLines,
} from '~/contact/index.server'
import { heldRetentionDays, retentionDays } from '~/ledger/index.server'
import { type NoticeSetupLine, noticesSetup, noticesSetupLines } from '~/notices/index.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { type DeskFence, deskFence } from './access.server'

/** Never a secret's value. */
export interface DeliverySetup {
  /** `none` when none is in effect. */
  delivery: string
  requested: string
  configured: boolean
  missing: string[]
  rateLimiter: boolean
  ledger: boolean
  retentionDays: number
  heldRetentionDays: number
  heldPerHour: number
  heldCeilingPerHour: number
  turnstile: 'on' | 'off' | { missing: string[] }
  fence: DeskFence
  /** The notices' lines, then the webhooks' (by host). */
  notices: NoticeSetupLine[]
}

export function deliverySetup(env: WorkerEnv): DeliverySetup {
  const report = healthReport(env)
  return {
    delivery: report.delivery,
    requested: report.requested,
    configured: report.configured,
    missing: report.missing,
    rateLimiter: report.rateLimiter,
    ledger: report.ledger,
    retentionDays: retentionDays(env.ENQUIRY_RETENTION_DAYS),
    heldRetentionDays: heldRetentionDays(env.ENQUIRY_RETENTION_DAYS),
    heldPerHour: HELD_PER_HOUR,
    heldCeilingPerHour: HELD_CEILING_PER_HOUR,
    turnstile: report.turnstile,
    fence: deskFence(env),
    notices: [...noticesSetupLines(noticesSetup(env), site.email), ...webhookSetupLines(webhookSetup(env))],
  }
}

/** What the set-up lacks, in a few words each, for the desk's one line (`/admin`). */
export function setupGaps(setup: DeliverySetup): string[] {
  const gaps: string[] = []
  if (setup.missing.length) gaps.push(`the delivery needs ${setup.missing.join(', ')}`)
  else if (setup.delivery === 'none') gaps.push('no delivery is in effect')
  if (!setup.ledger) gaps.push('no enquiry database is bound')
  if (!setup.rateLimiter) gaps.push('the rate limiters are not bound')
  if (typeof setup.turnstile === 'object') gaps.push(`Turnstile needs ${setup.turnstile.missing.join(', ')}`)
  if ('policyOnly' in setup.fence && !setup.fence.policyOnly)
    gaps.push('no allow-list, nor a reason for the Access policy alone')
  if (setup.notices.some((line) => line.id === 'setup-webhooks-refused')) gaps.push('a webhook endpoint is refused')
  return gaps
}
