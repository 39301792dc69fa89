import { countHeld, eraseHeld, type HeldSelection, parseHeldSelection, recordAudit } from '~/ledger/index.server'
import type { ActionResult } from '~/server/answer'
import type { WorkerEnv } from '~/server/runtime.server'
import type { ActionContext } from './operator.server'
import { heldErasePath } from './paths'

/** The confirmation page: how many held enquiries the selection erases, up to the newest one. */
export interface HeldErasure {
  selection: HeldSelection
  count: number
  /** The erasure stops there, so one held after the page was shown is kept. */
  until: string | null
}

export async function heldErasure(env: WorkerEnv, selection: HeldSelection): Promise<HeldErasure> {
  const { count, newest } = await countHeld(env.ENQUIRIES, selection)
  return { selection, count, until: newest }
}

/**
 * `erase-held` with `day` and/or `reason` (neither: every held enquiry), `until` from the
 * confirmation page and `confirm=held`; without the confirmation, to the confirmation page.
 * Back to the held list; the log line has the selection and the count, never an enquiry's content.
 */
export async function eraseHeldAction(form: FormData, { env, operator }: ActionContext): Promise<ActionResult> {
  const selection = parseHeldSelection({ day: form.get('day') ?? undefined, reason: form.get('reason') ?? undefined })
  if (!selection) return { answer: { status: 400, message: 'No valid day (YYYY-MM-DD) or reason.' } }
  const until = form.get('until')
  if (form.get('confirm') !== 'held' || typeof until !== 'string' || Number.isNaN(Date.parse(until)))
    return { answer: { seeOther: heldErasePath(selection) } }
  await recordAudit(env.ENQUIRIES, {
    operator: operator.email,
    action: 'erase-held',
    detail: `day ${selection.day ?? 'any'}, reason ${selection.reason ?? 'any'}, up to ${until}`,
  })
  const erased = await eraseHeld(env.ENQUIRIES, selection, until)
  const flash = erased > 0 ? 'held-erased' : 'held-none'
  return {
    answer: { seeOther: `/admin?status=held&notice=${flash}` },
    logged: { day: selection.day ?? 'all', reason: selection.reason ?? 'all', erased, result: flash },
  }
}
