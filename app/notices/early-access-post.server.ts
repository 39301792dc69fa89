import { seeOther } from '~/server/answer'
import { readFormBody } from '~/server/body-limit.server'
import { errorCause, log } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { confirmByLink, leaveByLink, type SubscriberMoved } from './early-access.server'
import { earlyAccessFields } from './early-access-link'
import { CONFIRM_PATH, LEAVE_PATH } from './early-access-paths'

/** What the two pages can say after a post: only these words, never text from the address. */
export const CONFIRM_RESULTS = ['confirmed', 'already', 'left', 'gone', 'invalid', 'expired', 'error'] as const
export const LEAVE_RESULTS = ['left', 'already', 'gone', 'invalid', 'error'] as const

async function formFields(request: Request): Promise<Record<string, string>> {
  const body = await readFormBody(request)
  if (!body.ok) return {}
  return Object.fromEntries(
    [...body.form.entries()].filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
  )
}

/** A 303 back to the confirm page; once confirmed, with the leave link's fields for its "leave" link. */
export async function handleConfirmPost(request: Request, env: WorkerEnv, moved?: SubscriberMoved): Promise<Response> {
  try {
    const { result, leave } = await confirmByLink(env, earlyAccessFields(await formFields(request)), new Date(), moved)
    const query = new URLSearchParams({ result, ...(leave ? { id: leave.id, sig: leave.sig } : {}) })
    return seeOther(`${CONFIRM_PATH}?${query}`)
  } catch (error) {
    log('error', { event: 'early_access', outcome: 'confirm_error', cause: errorCause(error) })
    return seeOther(`${CONFIRM_PATH}?result=error`)
  }
}

/** The leave page's button, and a mail client's one-click POST (RFC 8058: token in the URL, no cookie, no Origin): a plain 200. */
export async function handleLeavePost(request: Request, env: WorkerEnv, moved?: SubscriberMoved): Promise<Response> {
  const url = new URL(request.url)
  const oneClick = url.searchParams.has('sig')
  const fields = oneClick ? Object.fromEntries(url.searchParams) : await formFields(request)
  try {
    const result = await leaveByLink(env, earlyAccessFields(fields), oneClick ? 'one-click' : 'page', new Date(), moved)
    if (oneClick)
      return new Response(result === 'invalid' ? 'This link does not work.' : 'You have left the list.', {
        status: result === 'invalid' ? 400 : 200,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
      })
    return seeOther(`${LEAVE_PATH}?result=${result}`)
  } catch (error) {
    log('error', { event: 'early_access', outcome: 'leave_error', cause: errorCause(error) })
    if (oneClick) return new Response('Something went wrong.', { status: 503, headers: { 'Retry-After': '60' } })
    return seeOther(`${LEAVE_PATH}?result=error`)
  }
}
