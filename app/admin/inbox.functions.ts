import { notFound } from '@tanstack/react-router'
import { createServerFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { parseHeldSelection } from '~/contact/index.server'
import { type WorkerEnv, workerEnv } from '~/server/runtime.server'
import { enquiryDetail, heldErasure, inboxData, type Operator, operatorFor, parseInboxQuery } from './inbox.server'

/**
 * The inbox pages' data. Each call checks the Access token itself: these functions also answer at
 * `/_serverFn/…`, outside `/admin`, where the request middleware's gate does not apply.
 */
async function requireOperator(): Promise<WorkerEnv> {
  return (await requireOperatorWithEnv()).env
}

/** The same check, with who is asking (the triage parts of the pages show and filter by them). */
async function requireOperatorWithEnv(): Promise<{ env: WorkerEnv; operator: Operator }> {
  const env = await workerEnv()
  const operator = await operatorFor(getRequest(), env)
  if (!operator) throw new Response('Not allowed', { status: 403 })
  return { env, operator }
}

export const loadInbox = createServerFn({ method: 'GET' })
  .validator((input: unknown) => parseInboxQuery((input ?? {}) as Record<string, unknown>))
  .handler(async ({ data }) => {
    const { env, operator } = await requireOperatorWithEnv()
    return inboxData(env, data, operator)
  })

export const loadEnquiry = createServerFn({ method: 'GET' })
  .validator((input: unknown) => String((input as { id?: unknown })?.id ?? ''))
  .handler(async ({ data }) => {
    const { env, operator } = await requireOperatorWithEnv()
    const detail = await enquiryDetail(env, data, operator)
    if (!detail) throw notFound()
    return detail
  })

/** The confirmation page of a bulk erasure of held enquiries: how many, up to when. */
export const loadHeldErasure = createServerFn({ method: 'GET' })
  .validator((input: unknown) => {
    const selection = parseHeldSelection((input ?? {}) as { day?: unknown; reason?: unknown })
    if (!selection) throw notFound()
    return selection
  })
  .handler(async ({ data }) => heldErasure(await requireOperator(), data))
