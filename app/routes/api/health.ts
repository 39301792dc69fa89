import { createFileRoute } from '@tanstack/react-router'
import { publicHealth } from '~/contact/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/**
 * `GET /api/health`: only whether the site is up and can store enquiries (`{ ok }`), and which
 * version of the Worker answered (`version`: its id from the version_metadata binding, null where
 * the binding is missing). The smoke test after a deploy waits until the new version answers here
 * before it judges it (scripts/smoke.ts). Which delivery is in effect and what it lacks are shown to
 * operators in the inbox, not to the world.
 */
export const Route = createFileRoute('/api/health')({
  server: {
    handlers: {
      GET: async () => {
        const { env } = await workerRuntime()
        return Response.json(
          { ...publicHealth(env), version: env.CF_VERSION_METADATA?.id ?? null },
          { headers: { 'Cache-Control': 'no-store' } },
        )
      },
      ANY: () => replyResponse(methodNotAllowed('GET')),
    },
  },
})
