import { attemptNow } from '~/contact/index.server'
import {
  type EnquiryRecord,
  eraseEnquiry,
  getEnquiry,
  isEnquiryId,
  liveLeaseUntil,
  markHandled,
  RELEASE_FROM,
  RETRY_FROM,
  requeueEnquiry,
} from '~/ledger/index.server'
import { ADMIN_HEADERS } from '~/server/admin-path'
import { type ActionAnswer, type ActionResult, answerResponse, forbidden } from '~/server/answer'
import { readFormBody } from '~/server/body-limit.server'
import { errorCause, log, requestIdFor } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import type { Flash } from './flash'
import { eraseHeldAction } from './held.server'
import { SEEN_STATUS } from './moves'
import { type ActionContext, operatorFor } from './operator.server'
import { enquiryPath } from './paths'
import { erasePersonAction } from './person.server'
import { isTriageActionName, TRIAGE_ACTIONS } from './triage'
import { triageAction } from './triage-actions.server'
import { replayAction } from './webhooks.server'

/** On one enquiry; `erase-held` and `erase-person` act on many. */
export const ENQUIRY_ACTIONS = ['handled', 'retry', 'release', 'erase'] as const
export type EnquiryAction = (typeof ENQUIRY_ACTIONS)[number]
const isEnquiryAction = (value: unknown): value is EnquiryAction =>
  (ENQUIRY_ACTIONS as readonly unknown[]).includes(value)

const NOT_DONE = 'The enquiry database did not answer; nothing was changed. Try again.'

/**
 * `POST /admin/actions`, every desk action, with or without JavaScript: who acts (checked again
 * behind the middleware's gate), the form, the action, one `event=admin` line, and a 303 back with
 * a flash. A guard on what an operator may do goes here, between who acts and the action.
 */
export async function handleDeskAction(request: Request, env: WorkerEnv): Promise<Response> {
  const requestId = requestIdFor(request)
  const operator = await operatorFor(request, env, requestId)
  if (!operator) return forbidden()
  const body = await readFormBody(request)
  const answer = body.ok
    ? await act(body.form, { env, operator, requestId })
    : body.status === 415
      ? { status: 415, message: 'Send the action as a form.' }
      : { status: 400, message: 'The form data could not be read.' }
  return answerResponse(answer, ADMIN_HEADERS)
}

async function act(form: FormData, context: ActionContext): Promise<ActionAnswer> {
  const action = form.get('action')
  const id = form.get('id')
  let run: () => Promise<ActionResult>
  if (action === 'erase-held') run = () => eraseHeldAction(form, context)
  else if (action === 'erase-person') run = () => erasePersonAction(form, context)
  else if (action === 'replay') run = () => replayAction(form, context)
  else if (isTriageActionName(action) || isEnquiryAction(action)) {
    if (!isEnquiryId(id)) return { status: 400, message: 'No valid enquiry id.' }
    run = () =>
      isEnquiryAction(action) ? enquiryAction(action, id, form, context) : triageAction(action, id, form, context)
  } else {
    const names = [...ENQUIRY_ACTIONS, 'erase-held', 'replay', ...TRIAGE_ACTIONS]
    return { status: 400, message: `Unknown action: use one of ${names.join(', ')}.` }
  }
  const { requestId, operator } = context
  try {
    const { answer, logged } = await run()
    if (logged) log('info', { event: 'admin', requestId, action, operator: operator.id, ...logged })
    return answer
  } catch (error) {
    const enquiryId = isEnquiryId(id) ? id : undefined
    log('error', { event: 'admin_error', requestId, action, enquiryId, cause: errorCause(error) })
    return { status: 503, message: NOT_DONE }
  }
}

/**
 * Each only while its status is the one its page showed (else `status-stale`, nothing done), and
 * never taking another attempt's lease (`busy`). Each writes its audit line with the change itself
 * (the requeue, for retry and release, before the attempt).
 */
async function enquiryAction(
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
  return { answer: { seeOther: flash === 'erased' ? '/admin?notice=erased' : enquiryPath(id, flash) }, logged }
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
  // Each line is written in the change's own batch, under its condition: no change, no line, and
  // an action whose line cannot be written is not done.
  const line = { operator, action, detail: `was ${record.status}` }
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
