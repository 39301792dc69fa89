import { createServerFn } from '@tanstack/react-start'
import { getRequest, setResponseHeader, setResponseStatus } from '@tanstack/react-start/server'
import * as v from 'valibot'
import { requestIdFor } from '~/server/log.server'
import { workerRuntime } from '~/server/runtime.server'
import { invalidInputReply, outcomeReply, submitEnquiry } from './contact.server'
import { enquiryInputSchema, type RawEnquiryInput } from './schema'
import type { ContactReplyBody } from './status'
import { turnstileSiteKey } from './turnstile.server'

/** The validator never throws (that would be a 500): it hands the handler the schema's verdict. */
export const submitContact = createServerFn({ method: 'POST' })
  .validator((input: RawEnquiryInput) => v.safeParse(enquiryInputSchema, input))
  .handler(async ({ data: parsed }): Promise<ContactReplyBody> => {
    const request = getRequest()
    const requestId = requestIdFor(request)
    const reply = parsed.success
      ? outcomeReply(await submitEnquiry(parsed.output, { ...(await workerRuntime()), request, requestId }))
      : invalidInputReply(parsed.issues, requestId)
    setResponseStatus(reply.status)
    for (const [name, value] of Object.entries(reply.headers ?? {})) setResponseHeader(name, value)
    return reply.body
  })

/** For a form reached by an in-site navigation; null while Turnstile is off. */
export const getTurnstileSiteKey = createServerFn({ method: 'GET' }).handler(async () =>
  turnstileSiteKey((await workerRuntime()).env),
)
