import {
  erasePersonEnquiries,
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

const enquiries = (n: number) => `${n} enquir${n === 1 ? 'y' : 'ies'}`

/** A look-up that finds any is a line on each (never the address). */
export async function personPage(env: WorkerEnv, operator: Operator, asked: string | null) {
  if (asked === null) return { asked: null, email: null, enquiries: [] as PersonEnquiry[] }
  const email = parsePersonEmail(asked)
  if (!email) return { asked, email: null, enquiries: [] as PersonEnquiry[] }
  const found = await personEnquiries(env.ENQUIRIES, email)
  if (found.length)
    await recordAudit(env.ENQUIRIES, {
      operator: operator.email,
      action: 'person-search',
      enquiryIds: found.map((row) => row.id),
      detail: `${enquiries(found.length)} found`,
    })
  return { asked, email, enquiries: found }
}

export async function personErasure(env: WorkerEnv, asked: string | null) {
  const email = parsePersonEmail(asked)
  return { email, enquiries: email ? await personEnquiries(env.ENQUIRIES, email) : [] }
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
  const held = (await personEnquiries(env.ENQUIRIES, email)).map((row) => row.id).filter((id) => ids.includes(id))
  await recordAudit(env.ENQUIRIES, {
    operator: operator.email,
    action: DESK_ACTIONS['erase-person'].audit,
    enquiryIds: held,
    detail: `on request, ${enquiries(held.length)}`,
  })
  const erased = held.length ? await erasePersonEnquiries(env.ENQUIRIES, email, held) : []
  return {
    answer: { seeOther: personPath(email, erased.length ? 'person-erased' : 'person-none') },
    logged: { erased: erased.length },
  }
}

export async function handlePersonExport(request: Request, env: WorkerEnv): Promise<Response> {
  const requestId = requestIdFor(request)
  const operator = await operatorFor(request, env, requestId)
  if (!operator) return forbidden()
  const email = parsePersonEmail(new URL(request.url).searchParams.get('email'))
  if (!email) return answerResponse({ status: 400, message: 'No valid e-mail address.' }, DESK_HEADERS)
  try {
    const ids = (await personEnquiries(env.ENQUIRIES, email)).map((row) => row.id)
    await recordAudit(env.ENQUIRIES, {
      operator: operator.email,
      action: 'person-export',
      enquiryIds: ids,
      detail: `on request, ${enquiries(ids.length)}`,
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
