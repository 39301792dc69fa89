import { isEnquiryId } from '~/ledger/index.server'
import { type ActionAnswer, type ActionResult, answerResponse, forbidden } from '~/server/answer'
import { readFormBody } from '~/server/body-limit.server'
import { DESK_HEADERS } from '~/server/desk-path'
import { errorCause, log, requestIdFor } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { DESK_ACTIONS, type DeskActionName, isDeskActionName, unknownActionMessage } from './actions'
import { replaySubscriberAction } from './early-access.server'
import { enquiryAction } from './enquiry-actions.server'
import { eraseHeldAction } from './held.server'
import { type ActionContext, operatorFor } from './operator.server'
import { erasePersonAction } from './person.server'
import { triageAction } from './triage-actions.server'
import { replayAction } from './webhooks.server'

/** `id`: the enquiry's, checked when the table says the action needs one; else as posted. */
type Handler = (id: string, form: FormData, context: ActionContext) => Promise<ActionResult>

/** Each action of `DESK_ACTIONS` by its name: one left out is a type error. */
export const DESK_ACTION_HANDLERS: Record<DeskActionName, Handler> = {
  handled: (id, form, context) => enquiryAction('handled', id, form, context),
  retry: (id, form, context) => enquiryAction('retry', id, form, context),
  release: (id, form, context) => enquiryAction('release', id, form, context),
  erase: (id, form, context) => enquiryAction('erase', id, form, context),
  replay: (_id, form, context) => replayAction(form, context),
  'triage-take': (id, form, context) => triageAction('triage-take', id, form, context),
  'triage-assign': (id, form, context) => triageAction('triage-assign', id, form, context),
  'triage-state': (id, form, context) => triageAction('triage-state', id, form, context),
  'triage-close': (id, form, context) => triageAction('triage-close', id, form, context),
  'triage-note': (id, form, context) => triageAction('triage-note', id, form, context),
  'replay-subscriber': (_id, form, context) => replaySubscriberAction(form, context),
  'erase-held': (_id, form, context) => eraseHeldAction(form, context),
  'erase-person': (_id, form, context) => erasePersonAction(form, context),
}

const NOT_DONE = 'The enquiry database did not answer; nothing was changed. Try again.'

/** `POST /admin/actions`, every desk action; a guard on what an operator may do goes between who and what. */
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
  return answerResponse(answer, DESK_HEADERS)
}

async function act(form: FormData, context: ActionContext): Promise<ActionAnswer> {
  const action = form.get('action')
  if (!isDeskActionName(action)) return { status: 400, message: unknownActionMessage() }
  const id = form.get('id')
  const enquiryId = isEnquiryId(id) ? id : undefined
  if (DESK_ACTIONS[action].enquiry && !enquiryId) return { status: 400, message: 'No valid enquiry id.' }
  const { requestId, operator } = context
  try {
    const { answer, logged } = await DESK_ACTION_HANDLERS[action](enquiryId ?? '', form, context)
    if (logged) log('info', { event: 'admin', requestId, action, operator: operator.id, ...logged })
    return answer
  } catch (error) {
    log('error', { event: 'admin_error', requestId, action, enquiryId, cause: errorCause(error) })
    return { status: 503, message: NOT_DONE }
  }
}
