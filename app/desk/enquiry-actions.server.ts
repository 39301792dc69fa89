import { attemptNow } from '~/contact/index.server'
import {
  type EnquiryRecord,
  eraseEnquiry,
  getEnquiry,
  liveLeaseUntil,
  markHandled,
  RELEASE_FROM,
  RETRY_FROM,
  requeueEnquiry,
} from '~/ledger/index.server'
import type { ActionResult } from '~/server/answer'
import type { WorkerEnv } from '~/server/runtime.server'
import { DESK_ACTIONS } from './actions'
import type { Flash } from './flash'
import { SEEN_STATUS } from './moves'
import type { ActionContext } from './operator.server'
import { enquiryPath } from './paths'

/** The actions on one enquiry's delivery: its page's buttons below the message. */
export type EnquiryAction = 'handled' | 'retry' | 'release' | 'erase'

/** Each only while its status is as its page showed and no attempt holds it, audited with the change. */
export async function enquiryAction(
  action: EnquiryAction,
  id: string,
  form: FormData,
  { env, operator, requestId }: ActionContext,
): Promise<ActionResult> {
  const record = await getEnquiry(env.ENQUIRIES, id)
  if (!record) return { answer: { status: 404, message: 'No such enquiry (it may have been erased).' } }
  const seen = form.get(SEEN_STATUS)
  const from = typeof seen === 'string' ? seen : null
  const flash =
    from !== null && from !== record.status
      ? 'status-stale'
      : await change(action, record, form.get('confirm') === record.id, from, env, operator.email, requestId)
  const logged = { enquiryId: id, result: flash }
  if (flash === 'confirm-erase') return { answer: { seeOther: `/admin/erase/${encodeURIComponent(id)}` }, logged }
  return { answer: { seeOther: flash === 'erased' ? '/admin?flash=erased' : enquiryPath(id, flash) }, logged }
}

async function change(
  action: EnquiryAction,
  record: EnquiryRecord,
  confirmed: boolean,
  from: string | null,
  env: WorkerEnv,
  operator: string,
  requestId: string,
): Promise<Flash> {
  const now = new Date().toISOString()
  const db = env.ENQUIRIES
  // Each line goes in the change's own batch, under its condition: no change, no line.
  const line = { operator, action: DESK_ACTIONS[action].audit, detail: `was ${record.status}` }
  switch (action) {
    case 'handled':
      if (record.status === 'handled') return 'already-handled'
      return (await markHandled(db, record.id, now, operator, { line, from })) ? 'handled' : 'status-stale'
    case 'erase':
      if (!confirmed) return 'confirm-erase'
      return (await eraseEnquiry(db, record.id, { line, from })) ? 'erased' : 'already-erased'
    case 'release':
      // Released by someone else a moment ago, and under way: busy.
      if (record.status !== 'held') return (await liveLeaseUntil(db, record.id, now)) ? 'busy' : 'not-held'
      if (!(await requeueEnquiry(db, record.id, now, RELEASE_FROM, line)))
        return (await liveLeaseUntil(db, record.id, now)) ? 'busy' : 'not-held'
      return attempted(await attemptNow(env, record.id, requestId))
    case 'retry':
      if (record.status === 'delivered' || record.status === 'handled') return 'not-retried'
      if (!(await requeueEnquiry(db, record.id, now, RETRY_FROM, line)))
        return (await liveLeaseUntil(db, record.id, now)) ? 'busy' : 'not-retried'
      return attempted(await attemptNow(env, record.id, requestId))
  }
}

function attempted(result: Awaited<ReturnType<typeof attemptNow>>): Flash {
  if (result === 'delivered') return 'delivered'
  if (result === 'not_attempted') return 'not-configured'
  return result === 'busy' || result === 'lease_lost' ? 'busy' : 'retry-failed'
}
