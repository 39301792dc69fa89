import { countHeld, eraseHeld, type HeldSelection, parseHeldSelection, recordAudit } from '~/ledger/index.server'
import type { ActionResult } from '~/server/answer'
import type { WorkerEnv } from '~/server/runtime.server'
import { DESK_ACTIONS } from './actions'
import type { ActionContext } from './operator.server'
import { heldErasePath } from './paths'

export interface HeldErasure {
  selection: HeldSelection
  count: number
  /** Where the erasure stops, so one held after the page was shown is kept. */
  until: string | null
}

export async function heldErasure(env: WorkerEnv, selection: HeldSelection): Promise<HeldErasure> {
  const { count, newest } = await countHeld(env.ENQUIRIES, selection)
  return { selection, count, until: newest }
}

/** Without `confirm=held` and `until` from the confirmation page, to that page. Never an enquiry's content in the log. */
export async function eraseHeldAction(form: FormData, { env, operator }: ActionContext): Promise<ActionResult> {
  const selection = parseHeldSelection({ day: form.get('day') ?? undefined, reason: form.get('reason') ?? undefined })
  if (!selection) return { answer: { status: 400, message: 'No valid day (YYYY-MM-DD) or reason.' } }
  const until = form.get('until')
  if (form.get('confirm') !== 'held' || typeof until !== 'string' || Number.isNaN(Date.parse(until)))
    return { answer: { seeOther: heldErasePath(selection) } }
  await recordAudit(env.ENQUIRIES, {
    operator: operator.email,
    action: DESK_ACTIONS['erase-held'].audit,
    detail: `day ${selection.day ?? 'any'}, reason ${selection.reason ?? 'any'}, up to ${until}`,
  })
  const erased = await eraseHeld(env.ENQUIRIES, selection, until)
  const flash = erased > 0 ? 'held-erased' : 'held-none'
  return {
    answer: { seeOther: `/admin?status=held&flash=${flash}` },
    logged: { day: selection.day ?? 'all', reason: selection.reason ?? 'all', erased, result: flash },
  }
}
