import { createMiddleware, createServerFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import * as v from 'valibot'
import { invalidInputAnswer, outcomeAnswer, submitEnquiry } from './contact.server'
import { workerRuntime } from './runtime.server'
import { contactSubmissionSchema } from './schema'
import { turnstileSiteKey } from './turnstile.server'

/**
 * Refuses invalid input with a 400 JSON answer naming each invalid field, before the validator
 * (which would otherwise throw, and Start would answer 500). Nothing invalid is ever forwarded.
 */
const refuseInvalidInput = createMiddleware({ type: 'function' }).server(async ({ data, next }) => {
  const result = v.safeParse(contactSubmissionSchema, data)
  if (!result.success) throw invalidInputAnswer(result.issues, getRequest())
  return next()
})

/**
 * The contact form's server function. Answers with a JSON `Response`: 200 `{ ok: true }` once the
 * enquiry is stored, or `{ ok: false, error, message }` with 400, 429 (and Retry-After) or 503.
 * The access key is added on the server; one sent by a client is dropped by the schema.
 */
export const submitContact = createServerFn({ method: 'POST' })
  .middleware([refuseInvalidInput])
  .validator(contactSubmissionSchema)
  .handler(async ({ data }) => {
    const request = getRequest()
    const outcome = await submitEnquiry(data, { ...(await workerRuntime()), request })
    return outcomeAnswer(outcome, request)
  })

/** Turnstile's site key while it is on (public), else null: for a form reached by an in-site navigation. */
export const getTurnstileSiteKey = createServerFn({ method: 'GET' }).handler(async () =>
  turnstileSiteKey((await workerRuntime()).env),
)
