import { recordAudit, storedTriage, triageView, writeTriage } from '~/ledger/index.server'
import type { ActionResult } from '~/server/answer'
import type { WorkerEnv } from '~/server/runtime.server'
import { type ActionContext, knownOperators, type Operator } from './operator.server'
import { enquiryPath } from './paths'
import { parseTriageAction, type TriageAction, type TriageActionName, type TriageFlash, transition } from './triage'

export type TriageResult = TriageFlash | 'missing'

/** Written only while the triage is still as read: else `triage-stale`, nothing written. */
export async function applyTriageAction(
  env: WorkerEnv,
  operator: Operator,
  enquiryId: string,
  action: TriageAction,
  now = new Date().toISOString(),
): Promise<TriageResult> {
  const stored = await storedTriage(env.ENQUIRIES, enquiryId)
  if (!stored) return 'missing'
  if (action.kind === 'assign' && action.owner !== null) {
    const owner = action.owner.toLowerCase()
    if (!(await knownOperators(env, operator.email)).includes(owner)) return 'triage-unknown-operator'
    action = { kind: 'assign', owner }
  }
  const move = transition(triageView(stored, now), action, operator.email)
  if (!move.ok) return move.flash
  const note = action.kind === 'note' ? { author: operator.email, at: now, text: action.text } : undefined
  const written = await writeTriage(env.ENQUIRIES, enquiryId, stored, move.next, note)
  return written === 'written' ? move.flash : written === 'stale' ? 'triage-stale' : 'missing'
}

/** Never a note's text. */
function detailOf(action: TriageAction): string {
  if (action.kind === 'assign') return `to ${action.owner ?? 'nobody'}`
  if (action.kind === 'state') return action.state
  return action.kind === 'close' ? action.resolution : ''
}

/** Each with the enquiry's `id`; `triage-close` posts its resolution as `outcome`. */
export async function triageAction(
  name: TriageActionName,
  id: string,
  form: FormData,
  { env, operator }: ActionContext,
): Promise<ActionResult> {
  const action = parseTriageAction(name, form)
  if (!('error' in action))
    await recordAudit(env.ENQUIRIES, {
      operator: operator.email,
      action: name,
      enquiryId: id,
      detail: detailOf(action),
    })
  const result = 'error' in action ? action.error : await applyTriageAction(env, operator, id, action)
  const logged = { enquiryId: id, result }
  if (result === 'missing')
    return { answer: { status: 404, message: 'No such enquiry (it may have been erased).' }, logged }
  return { answer: { seeOther: enquiryPath(id, result) }, logged }
}
