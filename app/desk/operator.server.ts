import { redirect } from '@tanstack/react-router'
import { getRequest } from '@tanstack/react-start/server'
import { seenOperators } from '~/ledger/index.server'
import { forbidden } from '~/server/answer'
import { isDeskPath } from '~/server/desk-path'
import { log, requestIdFor } from '~/server/log.server'
import { type WorkerEnv, workerEnv } from '~/server/runtime.server'
import { verifyAccess } from './access.server'
import { confirmPath, fromTheDesk } from './navigation'

/** Who is acting: the one place every desk file asks. Log lines name an operator by the token's `sub` only. */
export interface Operator {
  email: string
  id: string
}

export interface ActionContext {
  env: WorkerEnv
  operator: Operator
  requestId: string
}

/** Null, and one log line, without a valid Access token. */
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

/** Each server function checks itself, as they also answer at `/_serverFn/…`, outside the gate; `effect`
 * refused during a render redirects to the confirmation page (a thrown Response would be a bare 500). */
export async function signedIn({ effect = false } = {}): Promise<{ env: WorkerEnv; operator: Operator }> {
  const env = await workerEnv()
  const request = getRequest()
  const operator = await operatorFor(request, env, requestIdFor(request))
  if (!operator) throw forbidden()
  if (effect && !fromTheDesk(request.headers)) {
    const url = new URL(request.url)
    // A desk page renders; a server function's own address (`/_serverFn/…`) gets the 403.
    if (isDeskPath(url.pathname)) throw redirect({ href: confirmPath(url), statusCode: 303 })
    throw forbidden()
  }
  return { env, operator }
}

/** `ACCESS_ALLOWED_EMAILS` when set (only they can sign in); else every operator seen, and `me`. */
export async function knownOperators(env: WorkerEnv, me: string): Promise<string[]> {
  const allowed = (env.ACCESS_ALLOWED_EMAILS ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean)
  if (allowed.length) return [...new Set(allowed)].sort()
  return [...new Set([me.toLowerCase(), ...(await seenOperators(env.ENQUIRIES))])].sort()
}
