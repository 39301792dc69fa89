import { notFound } from '@tanstack/react-router'
import { createServerFn } from '@tanstack/react-start'
import { parseHeldSelection } from '~/contact/index.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { auditOf, recordOpen } from './audit.server'
import { enquiryDetail, heldErasure, inboxData, parseInboxQuery } from './inbox.server'
import { signedIn } from './signed-in.server'

/**
 * The inbox pages' data. Each call checks the Access token itself: these functions also answer at
 * `/_serverFn/…`, outside `/admin`, where the request middleware's gate does not apply.
 */
async function requireOperator(): Promise<WorkerEnv> {
  return (await signedIn()).env
}

export const loadInbox = createServerFn({ method: 'GET' })
  .validator((input: unknown) => parseInboxQuery((input ?? {}) as Record<string, unknown>))
  .handler(async ({ data }) => {
    const { env, operator } = await signedIn()
    return inboxData(env, data, operator)
  })

export const loadEnquiry = createServerFn({ method: 'GET' })
  .validator((input: unknown) => String((input as { id?: unknown })?.id ?? ''))
  .handler(async ({ data }) => {
    const { env, operator } = await signedIn()
    const detail = await enquiryDetail(env, data, operator)
    if (!detail) throw notFound()
    // Every read of an enquiry is in its audit trail (or the page is not shown).
    await recordOpen(env.ENQUIRIES, operator.email, detail.record.id)
    return { ...detail, audit: await auditOf(env.ENQUIRIES, detail.record.id) }
  })

/** The confirmation page of a bulk erasure of held enquiries: how many, up to when. */
export const loadHeldErasure = createServerFn({ method: 'GET' })
  .validator((input: unknown) => {
    const selection = parseHeldSelection((input ?? {}) as { day?: unknown; reason?: unknown })
    if (!selection) throw notFound()
    return selection
  })
  .handler(async ({ data }) => heldErasure(await requireOperator(), data))
