import { createServerFn } from '@tanstack/react-start'
import { activityPage, recordAudit } from './audit.server'
import { parsePersonEmail, personEnquiries } from './person.server'
import { signedIn } from './signed-in.server'

/** Lines on one page of the activity page. */
export const ACTIVITY_PAGE_SIZE = 50

/** The desk's shell: who is signed in. */
export const loadOperator = createServerFn({ method: 'GET' }).handler(async () => {
  const { operator } = await signedIn()
  return { email: operator.email }
})

/** `/admin/activity`: the audit trail, newest first, a page at a time. */
export const loadActivity = createServerFn({ method: 'GET' })
  .validator((input: unknown) => {
    const page = Number((input as { page?: unknown })?.page)
    return { page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1 }
  })
  .handler(async ({ data }) => {
    const { env } = await signedIn()
    const { lines, total } = await activityPage(env.ENQUIRIES, {
      limit: ACTIVITY_PAGE_SIZE,
      offset: (data.page - 1) * ACTIVITY_PAGE_SIZE,
    })
    return { page: data.page, lines, total, pageSize: ACTIVITY_PAGE_SIZE }
  })

const personInput = (input: unknown) => {
  const raw = (input as { email?: unknown })?.email
  return { email: raw === undefined || raw === '' ? null : String(raw).slice(0, 1000) }
}

/**
 * `/admin/person?email=…`: one address's enquiries. A look-up that finds any is an audit line on
 * each of them (never the address itself: the line names the enquiries).
 */
export const loadPerson = createServerFn({ method: 'GET' })
  .validator(personInput)
  .handler(async ({ data }) => {
    const { env, operator } = await signedIn()
    if (data.email === null) return { asked: null, email: null, enquiries: [] }
    const email = parsePersonEmail(data.email)
    if (!email) return { asked: data.email, email: null, enquiries: [] }
    const enquiries = await personEnquiries(env.ENQUIRIES, email)
    if (enquiries.length)
      await recordAudit(env.ENQUIRIES, {
        operator: operator.email,
        action: 'person-search',
        enquiryIds: enquiries.map((row) => row.id),
        detail: `${enquiries.length} enquir${enquiries.length === 1 ? 'y' : 'ies'} found`,
      })
    return { asked: data.email, email, enquiries }
  })

/** `/admin/person/erase?email=…`: what erasing the address's data would erase. */
export const loadPersonErasure = createServerFn({ method: 'GET' })
  .validator(personInput)
  .handler(async ({ data }) => {
    const { env } = await signedIn()
    const email = parsePersonEmail(data.email)
    return { email, enquiries: email ? await personEnquiries(env.ENQUIRIES, email) : [] }
  })
