import { createServerFn } from '@tanstack/react-start'
import { getRequest, setResponseHeader, setResponseStatus } from '@tanstack/react-start/server'
import * as v from 'valibot'
import { requestIdFor } from '~/server/log.server'
import { workerRuntime } from '~/server/runtime.server'
import { invalidInputReply, outcomeReply, submitEnquiry } from './contact.server'
import { type ContactSubmissionInput, contactSubmissionSchema } from './schema'
import type { ContactReplyBody } from './status'
import { turnstileSiteKey } from './turnstile.server'

/**
 * The contact form's server function. Its result is typed: `{ ok: true }` once the enquiry is
 * stored, or `{ ok: false, error, message, fields? }`, with the HTTP status set to match (400 for
 * refused input, naming each invalid field; 429 with Retry-After; 503 when not stored).
 * The validator never throws (that would be a 500): it hands the handler the schema's verdict,
 * so nothing invalid is ever stored or forwarded. The form service's key is added on the server;
 * one sent by a client is dropped by the schema.
 */
export const submitContact = createServerFn({ method: 'POST' })
  .validator((input: ContactSubmissionInput) => v.safeParse(contactSubmissionSchema, input))
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

/** Turnstile's site key while it is on (public), else null: for a form reached by an in-site navigation. */
export const getTurnstileSiteKey = createServerFn({ method: 'GET' }).handler(async () =>
  turnstileSiteKey((await workerRuntime()).env),
)
