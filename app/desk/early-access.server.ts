import { replayWebhook, webhookEndpoints } from '~/contact/index.server'
import {
  confirmedEarlyAccessPages,
  type EarlyAccessEntry,
  earlyAccessCounts,
  isEarlyAccessId,
  newestEarlyAccess,
  recordAudit,
  undeliveredSubscriberEvents,
  webhookEvent,
} from '~/ledger/index.server'
import { earlyAccessSetup } from '~/notices/index.server'
import { type ActionResult, answerResponse, forbidden } from '~/server/answer'
import { DESK_HEADERS } from '~/server/desk-path'
import { errorCause, log, requestIdFor } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { DESK_ACTIONS } from './actions'
import { csvDownload, EXPORT_LIMIT } from './csv-export.server'
import type { Flash } from './flash'
import { type ActionContext, operatorFor } from './operator.server'
import { EARLY_ACCESS_PATH } from './paths'

/** The Early access page (docs/desk.md): counts, the newest entries, the undelivered webhooks, the export. */

export const NEWEST_ENTRIES = 50
const UNDELIVERED_SHOWN = 20

/** A mail tool's import: the address first, then the proof of consent. */
export const SUBSCRIBER_CSV_HEADER = ['Email Address', 'Confirmed at', 'Consent version'] as const

export async function earlyAccessPage(env: WorkerEnv) {
  const endpoints = new Map(webhookEndpoints(env).map((endpoint) => [endpoint.name, endpoint.host]))
  const [counts, newest, undelivered] = await Promise.all([
    earlyAccessCounts(env.ENQUIRIES),
    newestEarlyAccess(env.ENQUIRIES, NEWEST_ENTRIES),
    undeliveredSubscriberEvents(env.ENQUIRIES, UNDELIVERED_SHOWN),
  ])
  const setup = earlyAccessSetup(env)
  return {
    on: setup.on,
    why: setup.on ? null : setup.why,
    counts,
    newest,
    undelivered: undelivered.map((event) => ({ ...event, host: endpoints.get(event.endpoint) ?? null })),
  }
}

/** The confirmed list as CSV, guarded as the enquiries' export is; one audit line, never an address. */
export async function handleEarlyAccessExport(request: Request, env: WorkerEnv): Promise<Response> {
  const requestId = requestIdFor(request)
  const operator = await operatorFor(request, env, requestId)
  if (!operator) return forbidden()
  try {
    await recordAudit(env.ENQUIRIES, { operator: operator.email, action: 'early-access-export', detail: 'confirmed' })
    return await csvDownload({
      requestId,
      action: 'early-access-export',
      operator,
      filename: `early-access-confirmed-${new Date().toISOString().slice(0, 10)}.csv`,
      header: SUBSCRIBER_CSV_HEADER,
      values: (entry: EarlyAccessEntry) => [entry.email, entry.confirmedAt, entry.consentVersion],
      pages: confirmedEarlyAccessPages(env.ENQUIRIES, { pageSize: 1000, limit: EXPORT_LIMIT }),
    })
  } catch (error) {
    log('error', { event: 'admin_error', requestId, action: 'early-access-export', cause: errorCause(error) })
    return answerResponse({ status: 503, message: 'The database did not answer. Try again.' }, DESK_HEADERS)
  }
}

const MSG_ID = /^msg_[0-9a-f]{32}$/

/** A subscriber event sent again with its own id, as an enquiry's Replay does; audited without the entry. */
export async function replaySubscriberAction(
  form: FormData,
  { env, operator, requestId }: ActionContext,
): Promise<ActionResult> {
  const id = form.get('event')
  if (typeof id !== 'string' || !MSG_ID.test(id)) return { answer: { status: 400, message: 'No valid event.' } }
  const known = await webhookEvent(env.ENQUIRIES, id)
  if (!known || !isEarlyAccessId(known.enquiryId))
    return { answer: { status: 404, message: 'No such early access webhook event.' } }
  const outcome = await replayWebhook(env, id, known.enquiryId, requestId, {
    operator: operator.email,
    action: DESK_ACTIONS['replay-subscriber'].audit,
    enquiryId: null,
    detail: `${known.type} to ${known.endpoint}, was ${known.status}`,
  })
  const flash: Flash =
    outcome === 'delivered' ? 'replayed' : outcome === 'busy' || outcome === 'lease_lost' ? 'busy' : 'replay-failed'
  return {
    answer: { seeOther: `${EARLY_ACCESS_PATH}?flash=${flash}` },
    logged: { webhookId: id, endpoint: known.endpoint, result: flash },
  }
}
