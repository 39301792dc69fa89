import { getRequest } from '@tanstack/react-start/server'
import { seenOperators } from '~/ledger/index.server'
import { forbidden } from '~/server/answer'
import { log, requestIdFor } from '~/server/log.server'
import { type WorkerEnv, workerEnv } from '~/server/runtime.server'
import { verifyAccess } from './access.server'

/**
 * Who is acting, the one place every desk file asks. The e-mail is the operator's own (shown to
 * them, stored as who did what); the log lines name them by Access's ID (the token's `sub`) only.
 * A guard on what an operator may do goes after this check, in `actions.server.ts`.
 */
export interface Operator {
  email: string
  id: string
}

/** What a desk action is done with: who acts, the env, and the request's id for its log lines. */
export interface ActionContext {
  env: WorkerEnv
  operator: Operator
  requestId: string
}

/** The operator when the request carries a valid Access token, else null and one log line. */
export async function operatorFor(request: Request, env: WorkerEnv, requestId: string): Promise<Operator | null> {
  const access = await verifyAccess(request, env)
  if (access.ok) return { email: access.email, id: access.id }
  log('warn', {
    event: 'admin_denied',
    requestId,
    reason: access.reason,
    path: new URL(request.url).pathname.slice(0, 100),
  })
  return null
}

/**
 * For a desk page's server function: each checks the token itself, since server functions also
 * answer at `/_serverFn/…`, outside `/admin`, where the middleware's gate does not apply.
 */
export async function signedIn(): Promise<{ env: WorkerEnv; operator: Operator }> {
  const env = await workerEnv()
  const request = getRequest()
  const operator = await operatorFor(request, env, requestIdFor(request))
  if (!operator) throw forbidden()
  return { env, operator }
}

/**
 * Whom an enquiry may be assigned to: `ACCESS_ALLOWED_EMAILS` when set (only they can sign in);
 * otherwise every operator the desk has seen, and `me`. Sorted, lower case.
 */
export async function knownOperators(env: WorkerEnv, me: string): Promise<string[]> {
  const allowed = (env.ACCESS_ALLOWED_EMAILS ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean)
  if (allowed.length) return [...new Set(allowed)].sort()
  return [...new Set([me.toLowerCase(), ...(await seenOperators(env.ENQUIRIES))])].sort()
}
