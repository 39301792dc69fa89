import { seeOther } from '~/server/answer'
import { readFormBody } from '~/server/body-limit.server'
import { errorCause, log } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { withdrawEnquiry } from './notices.server'
import { linkFields, WITHDRAW_PATH } from './receipt-link'

/** What the withdraw page can say after a post: only these words, never text from the address. */
export const WITHDRAW_RESULTS = ['erased', 'gone', 'invalid', 'expired', 'error'] as const
export type WithdrawResult = (typeof WITHDRAW_RESULTS)[number]

/** Always a 303 back to the page, which says what happened; a forged or expired link changes nothing. */
export async function handleWithdrawPost(request: Request, env: WorkerEnv): Promise<Response> {
  const back = (result: WithdrawResult) => seeOther(`${WITHDRAW_PATH}?result=${result}`)
  const body = await readFormBody(request)
  if (!body.ok) return back('invalid')
  const fields = linkFields(Object.fromEntries([...body.form.entries()].filter(([, v]) => typeof v === 'string')))
  try {
    return back(await withdrawEnquiry(env, fields))
  } catch (error) {
    log('error', { event: 'withdraw', outcome: 'error', cause: errorCause(error) })
    return back('error')
  }
}
