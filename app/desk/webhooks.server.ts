import { replayWebhook, webhookEndpoints } from '~/contact/index.server'
import { type EndpointHistory, getEnquiry, isEnquiryId, webhookEventsOf } from '~/ledger/index.server'
import type { ActionResult } from '~/server/answer'
import type { WorkerEnv } from '~/server/runtime.server'
import { DESK_ACTIONS } from './actions'
import type { Flash } from './flash'
import type { ActionContext } from './operator.server'
import { enquiryPath } from './paths'

/** One endpoint's event for an enquiry, as the enquiry's page shows it: by name and host, never the URL. */
export interface EndpointAttempts extends EndpointHistory {
  /** Null: no longer configured (its attempts stay). */
  host: string | null
  format: 'standard' | 'slack' | null
}

/** The enquiry's webhook events, each endpoint with its own attempts (docs/integrations.md). */
export async function webhookHistory(env: WorkerEnv, enquiryId: string): Promise<EndpointAttempts[]> {
  const endpoints = new Map(webhookEndpoints(env).map((endpoint) => [endpoint.name, endpoint]))
  return (await webhookEventsOf(env.ENQUIRIES, enquiryId)).map((event) => {
    const endpoint = endpoints.get(event.endpoint)
    return { ...event, host: endpoint?.host ?? null, format: endpoint?.format ?? null }
  })
}

const MSG_ID = /^msg_[0-9a-f]{32}$/

/** Sent again with its own id (a receiver that has it de-duplicates), audited with the requeue; a failure resumes the schedule. */
export async function replayAction(form: FormData, { env, operator, requestId }: ActionContext): Promise<ActionResult> {
  const id = form.get('id')
  const event = form.get('event')
  if (!isEnquiryId(id) || typeof event !== 'string' || !MSG_ID.test(event))
    return { answer: { status: 400, message: 'No valid enquiry id or event.' } }
  const record = await getEnquiry(env.ENQUIRIES, id)
  if (!record) return { answer: { status: 404, message: 'No such enquiry (it may have been erased).' } }
  const known = (await webhookEventsOf(env.ENQUIRIES, id)).find((candidate) => candidate.id === event)
  if (!known) return { answer: { status: 404, message: 'No such webhook event for this enquiry.' } }
  const outcome = await replayWebhook(env, event, id, requestId, {
    operator: operator.email,
    action: DESK_ACTIONS.replay.audit,
    detail: `${known.type} to ${known.endpoint}, was ${known.status}`,
  })
  const flash: Flash =
    outcome === 'delivered' ? 'replayed' : outcome === 'busy' || outcome === 'lease_lost' ? 'busy' : 'replay-failed'
  return {
    answer: { seeOther: enquiryPath(id, flash) },
    logged: { enquiryId: id, webhookId: event, endpoint: known.endpoint, result: flash },
  }
}
