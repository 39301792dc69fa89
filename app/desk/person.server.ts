import {
  type EarlyAccessEntry,
  earlyAccessOf,
  erasePersonEnquiries,
  isEarlyAccessId,
  isEnquiryId,
  type PersonEnquiry,
  parsePersonEmail,
  personEnquiries,
  personExport,
  recordAudit,
} from '~/ledger/index.server'
import { type ActionResult, answerResponse, forbidden } from '~/server/answer'
import { DESK_HEADERS } from '~/server/desk-path'
import { errorCause, log, requestIdFor } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { DESK_ACTIONS } from './actions'
import { type ActionContext, type Operator, operatorFor } from './operator.server'
import { personErasePath, personPath } from './paths'

/** A line per enquiry in the audit trail, written first: if it cannot be, nothing is done. */

/** With their early-access entry, when there is one: the audit detail names it, never the address. */
const enquiries = (n: number, entry = false) => `${n} enquir${n === 1 ? 'y' : 'ies'}${entry ? ', early access' : ''}`

interface PersonHeld {
  enquiries: PersonEnquiry[]
  earlyAccess: EarlyAccessEntry | null
}

async function heldFor(env: WorkerEnv, email: string): Promise<PersonHeld> {
  const [found, earlyAccess] = await Promise.all([
    personEnquiries(env.ENQUIRIES, email),
    earlyAccessOf(env.ENQUIRIES, email),
  ])
  return { enquiries: found, earlyAccess }
}

const NOTHING: PersonHeld = { enquiries: [], earlyAccess: null }

/** A look-up that finds any is a line on each (never the address). */
export async function personPage(env: WorkerEnv, operator: Operator, asked: string | null) {
  if (asked === null) return { asked: null, email: null, ...NOTHING }
  const email = parsePersonEmail(asked)
  if (!email) return { asked, email: null, ...NOTHING }
  const held = await heldFor(env, email)
  if (held.enquiries.length || held.earlyAccess)
    await recordAudit(env.ENQUIRIES, {
      operator: operator.email,
      action: 'person-search',
      enquiryIds: held.enquiries.map((row) => row.id),
      detail: `${enquiries(held.enquiries.length, held.earlyAccess !== null)} found`,
    })
  return { asked, email, ...held }
}

export async function personErasure(env: WorkerEnv, asked: string | null) {
  const email = parsePersonEmail(asked)
  return { email, ...(email ? await heldFor(env, email) : NOTHING) }
}

/** `ids`: the ones the confirmation page showed (one received since is kept). */
export async function erasePersonAction(form: FormData, { env, operator }: ActionContext): Promise<ActionResult> {
  const email = parsePersonEmail(form.get('email'))
  if (!email) return { answer: { status: 400, message: 'No valid e-mail address.' } }
  const ids = String(form.get('ids') ?? '')
    .split(',')
    .filter(isEnquiryId)
    .slice(0, 1000)
  if (form.get('confirm') !== 'person') return { answer: { seeOther: personErasePath(email) } }
  const current = await heldFor(env, email)
  const held = current.enquiries.map((row) => row.id).filter((id) => ids.includes(id))
  const shown = form.get('entry')
  const entryId = isEarlyAccessId(shown) && current.earlyAccess?.id === shown ? shown : null
  await recordAudit(env.ENQUIRIES, {
    operator: operator.email,
    action: DESK_ACTIONS['erase-person'].audit,
    enquiryIds: held,
    detail: `on request, ${enquiries(held.length, entryId !== null)}`,
  })
  const done =
    held.length || entryId
      ? await erasePersonEnquiries(env.ENQUIRIES, email, held, entryId)
      : { erased: [], entry: false }
  return {
    answer: { seeOther: personPath(email, done.erased.length || done.entry ? 'person-erased' : 'person-none') },
    logged: { erased: done.erased.length, earlyAccess: done.entry ? 1 : 0 },
  }
}

export async function handlePersonExport(request: Request, env: WorkerEnv): Promise<Response> {
  const requestId = requestIdFor(request)
  const operator = await operatorFor(request, env, requestId)
  if (!operator) return forbidden()
  const email = parsePersonEmail(new URL(request.url).searchParams.get('email'))
  if (!email) return answerResponse({ status: 400, message: 'No valid e-mail address.' }, DESK_HEADERS)
  try {
    const held = await heldFor(env, email)
    await recordAudit(env.ENQUIRIES, {
      operator: operator.email,
      action: 'person-export',
      enquiryIds: held.enquiries.map((row) => row.id),
      detail: `on request, ${enquiries(held.enquiries.length, held.earlyAccess !== null)}`,
    })
    const data = await personExport(env.ENQUIRIES, email)
    log('info', {
      event: 'admin',
      requestId,
      action: 'export-person',
      operator: operator.id,
      enquiries: data.enquiries.length,
    })
    return new Response(`${JSON.stringify(data, null, 2)}\n`, {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="person-export-${data.exportedAt.slice(0, 10)}.json"`,
        ...DESK_HEADERS,
      },
    })
  } catch (error) {
    log('error', { event: 'admin_error', requestId, action: 'export-person', cause: errorCause(error) })
    return answerResponse({ status: 503, message: 'The enquiry database did not answer. Try again.' }, DESK_HEADERS)
  }
}
