import { storedTriage, type TriageFacts, triageView, writeTriage } from '~/ledger/index.server'
import type { ActionResult } from '~/server/answer'
import type { WorkerEnv } from '~/server/runtime.server'
import { DESK_ACTIONS } from './actions'
import { type ActionContext, knownOperators, type Operator } from './operator.server'
import { enquiryPath } from './paths'
import {
  auditDetail,
  parseSeen,
  parseTriageAction,
  sameTriage,
  type TriageAction,
  type TriageActionName,
  type TriageFlash,
  transition,
} from './triage'

export type TriageResult = TriageFlash | 'missing'

/** Written with its audit line, only while the triage is as the page showed it (else `triage-stale`). */
export async function applyTriageAction(
  env: WorkerEnv,
  operator: Operator,
  enquiryId: string,
  action: TriageAction,
  now = new Date().toISOString(),
  seen: TriageFacts | null = null,
): Promise<TriageResult> {
  const stored = await storedTriage(env.ENQUIRIES, enquiryId)
  if (!stored) return 'missing'
  const current = triageView(stored, now)
  if (seen && action.kind !== 'note' && !sameTriage(seen, current)) return 'triage-stale'
  if (action.kind === 'assign' && action.owner !== null) {
    const owner = action.owner.toLowerCase()
    if (!(await knownOperators(env, operator.email)).includes(owner)) return 'triage-unknown-operator'
    action = { kind: 'assign', owner }
  }
  const move = transition(current, action, operator.email)
  if (!move.ok) return move.flash
  const detail = auditDetail(action)
  const note = action.kind === 'note' ? { author: operator.email, at: now, text: action.text } : undefined
  const audit = { operator: operator.email, action: DESK_ACTIONS[`triage-${action.kind}`].audit, detail }
  const written = await writeTriage(env.ENQUIRIES, enquiryId, stored, move.next, audit, note)
  return written === 'written' ? move.flash : written === 'stale' ? 'triage-stale' : 'missing'
}

/** Each with the enquiry's `id` and the triage its page showed; `triage-close` posts its resolution as `outcome`. */
export async function triageAction(
  name: TriageActionName,
  id: string,
  form: FormData,
  { env, operator }: ActionContext,
): Promise<ActionResult> {
  const action = parseTriageAction(name, form)
  const seen = parseSeen(form)
  const result = 'error' in action ? action.error : await applyTriageAction(env, operator, id, action, undefined, seen)
  const logged = { enquiryId: id, result }
  if (result === 'missing')
    return { answer: { status: 404, message: 'No such enquiry (it may have been erased).' }, logged }
  return { answer: { seeOther: enquiryPath(id, result) }, logged }
}
