import type { AuditLine } from '~/ledger'
import { isResolution, isTriageState } from '~/ledger'
import { RESOLUTION_LABELS, TRIAGE_LABELS } from './triage'

/** What a refused stale move shows: who last changed the enquiry, what and when, from its audit trail. */

/** The delivery status a page showed, posted by *Mark handled*, *Retry*, *Release* and *Erase permanently*. */
export const SEEN_STATUS = 'seen-status'

const time = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`

function did(line: AuditLine): string | null {
  switch (line.action) {
    case 'triage-take':
      return 'took it'
    case 'triage-assign':
      return line.detail === 'to nobody' || line.detail === '' ? 'left it to nobody' : `assigned it ${line.detail}`
    case 'triage-state':
      return isTriageState(line.detail) ? `marked it ${TRIAGE_LABELS[line.detail].toLowerCase()}` : 'changed its state'
    case 'triage-close':
      return isResolution(line.detail) ? `closed it (${RESOLUTION_LABELS[line.detail]})` : 'closed it'
    case 'handled':
      return 'marked it handled'
    case 'retry':
      return 'retried its delivery'
    case 'release':
      return 'released it'
    default:
      return null
  }
}

/** The newest move on it by another operator, in words: `second@… took it at 2026-11-26 10:02 UTC.` */
export function lastMoveText(trail: readonly AuditLine[], me: string): string | null {
  for (let at = trail.length - 1; at >= 0; at--) {
    const line = trail[at]
    if (!line || line.operator.toLowerCase() === me.toLowerCase()) continue
    const words = did(line)
    if (words) return `${line.operator} ${words} at ${time(line.at)}.`
  }
  return null
}
