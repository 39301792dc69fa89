import * as v from 'valibot'
import { readFormBody } from '~/server/body-limit.server'
import { requestIdFor } from '~/server/log.server'
import { errorAnswer, invalidInputAnswer, outcomeAnswer, refusedFields, submitEnquiry } from './contact.server'
import { type FormResult, pickValues, resultCookies } from './form-result'
import type { WorkerRuntime } from './runtime.server'
import { CONTACT_FIELDS, contactSubmissionSchema, ENQUIRY_KEY_FIELD, HONEYPOT_FIELD, messageCode } from './schema'
import { TURNSTILE_FIELD } from './turnstile'

/** Where a browser goes after posting the form without JavaScript. */
export const FORM_RETURN_PATH = '/contact#contact-status'

/** A browser navigating (a form post without JavaScript), as opposed to a script or API client. */
export function isNavigation(request: Request): boolean {
  const mode = request.headers.get('Sec-Fetch-Mode')
  if (mode !== null) return mode === 'navigate'
  return (request.headers.get('Accept') ?? '').includes('text/html')
}

function seeOther(result: FormResult, request: Request): Response {
  const headers = new Headers({
    Location: FORM_RETURN_PATH,
    'Cache-Control': 'no-store',
    'X-Request-Id': requestIdFor(request),
  })
  for (const cookie of resultCookies(result, new URL(request.url).protocol === 'https:')) {
    headers.append('Set-Cookie', cookie)
  }
  return new Response(null, { status: 303, headers })
}

/**
 * `POST /api/contact`: the form posted by a browser without JavaScript (or by any HTTP client).
 * Same validation and delivery as the server function. A browser is sent back to `/contact` with
 * `303 See Other` and the result in a cookie; other clients get the JSON answer and its status.
 */
export async function handleFormPost(request: Request, runtime: WorkerRuntime): Promise<Response> {
  const requestId = requestIdFor(request)
  const body = await readFormBody(request)
  if (!body.ok)
    return body.status === 415
      ? errorAnswer('unsupported_media_type', 415, requestId, {
          message: 'Send the form as application/x-www-form-urlencoded or multipart/form-data.',
        })
      : errorAnswer('malformed_body', 400, requestId, { message: 'The form data could not be read.' })
  const { form } = body

  const raw: Record<string, string> = {}
  for (const field of [...CONTACT_FIELDS, HONEYPOT_FIELD, ENQUIRY_KEY_FIELD, TURNSTILE_FIELD]) {
    const value = form.get(field)
    if (typeof value === 'string') raw[field] = value
  }

  const parsed = v.safeParse(contactSubmissionSchema, raw)
  if (!parsed.success) {
    if (!isNavigation(request)) return invalidInputAnswer(parsed.issues, request)
    const fields = refusedFields(parsed.issues, request)
    const errors: Partial<Record<string, string>> = {}
    for (const field of CONTACT_FIELDS) {
      const code = fields[field] ? messageCode(fields[field]) : undefined
      if (code) errors[field] = code
    }
    return seeOther({ status: 'invalid', values: pickValues(raw), errors }, request)
  }

  const outcome = await submitEnquiry(parsed.output, { ...runtime, request })
  if (!isNavigation(request)) return outcomeAnswer(outcome, request)
  // Stored (or a bot's post, silently dropped): only the result travels back, never the values.
  if (outcome.kind === 'stored' || outcome.kind === 'ignored') return seeOther({ status: 'success' }, request)
  return seeOther({ status: 'failure', values: pickValues(raw) }, request)
}
