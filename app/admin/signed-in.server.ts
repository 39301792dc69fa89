import { getRequest } from '@tanstack/react-start/server'
import { type WorkerEnv, workerEnv } from '~/server/runtime.server'
import { type Operator, operatorFor } from './inbox.server'

/**
 * The operator behind a server function's call, and the env. Each call checks the Access token
 * itself: server functions also answer at `/_serverFn/…`, outside `/admin`, where the middleware's
 * gate does not apply.
 */
export async function signedIn(): Promise<{ env: WorkerEnv; operator: Operator }> {
  const env = await workerEnv()
  const operator = await operatorFor(getRequest(), env)
  if (!operator) throw new Response('Not allowed', { status: 403 })
  return { env, operator }
}
