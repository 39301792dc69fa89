import { notFound } from '@tanstack/react-router'
import { createServerFn } from '@tanstack/react-start'
import { activityPage, parseHeldSelection } from '~/ledger/index.server'
import { earlyAccessPage } from './early-access.server'
import { enquiryPage } from './enquiry.server'
import { enquiryListData, parseEnquiryListQuery } from './enquiry-list.server'
import { heldErasure } from './held.server'
import { signedIn } from './operator.server'
import { personErasure, personPage } from './person.server'
import { deliverySetup } from './setup.server'
import { sourcesData } from './sources.server'

/** The desk pages' data; each read model lives with its page. */

export const ACTIVITY_PAGE_SIZE = 50

export const loadOperator = createServerFn({ method: 'GET' }).handler(async () => {
  const { operator } = await signedIn()
  return { email: operator.email }
})

export const loadEnquiryList = createServerFn({ method: 'GET' })
  .validator((input: unknown) => parseEnquiryListQuery((input ?? {}) as Record<string, unknown>))
  .handler(async ({ data }) => {
    const { env, operator } = await signedIn()
    return enquiryListData(env, data, operator)
  })

export const loadEnquiry = createServerFn({ method: 'GET' })
  .validator((input: unknown) => String((input as { id?: unknown })?.id ?? ''))
  .handler(async ({ data }) => {
    const { env, operator } = await signedIn({ effect: true })
    const page = await enquiryPage(env, data, operator)
    if (!page) throw notFound()
    return page
  })

export const loadHeldErasure = createServerFn({ method: 'GET' })
  .validator((input: unknown) => {
    const selection = parseHeldSelection((input ?? {}) as { day?: unknown; reason?: unknown })
    if (!selection) throw notFound()
    return selection
  })
  .handler(async ({ data }) => heldErasure((await signedIn()).env, data))

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

export const loadPerson = createServerFn({ method: 'GET' })
  .validator(personInput)
  .handler(async ({ data }) => {
    const { env, operator } = await signedIn({ effect: data.email !== null })
    return personPage(env, operator, data.email)
  })

export const loadPersonErasure = createServerFn({ method: 'GET' })
  .validator(personInput)
  .handler(async ({ data }) => personErasure((await signedIn({ effect: true })).env, data.email))

export const loadSources = createServerFn({ method: 'GET' }).handler(async () => sourcesData((await signedIn()).env))

export const loadEarlyAccess = createServerFn({ method: 'GET' }).handler(async () =>
  earlyAccessPage((await signedIn()).env),
)

export const loadSetup = createServerFn({ method: 'GET' }).handler(async () => deliverySetup((await signedIn()).env))
