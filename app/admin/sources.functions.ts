import { createServerFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { workerEnv } from '~/server/runtime.server'
import { operatorFor } from './inbox.server'
import { sourcesData } from './sources.server'

/** `/admin/sources`' data. It checks the Access token itself, as the inbox's other functions do. */
export const loadSources = createServerFn({ method: 'GET' }).handler(async () => {
  const env = await workerEnv()
  if (!(await operatorFor(getRequest(), env))) throw new Response('Not allowed', { status: 403 })
  return sourcesData(env)
})
