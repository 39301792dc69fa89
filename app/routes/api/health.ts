import { createFileRoute } from '@tanstack/react-router'
import { publicHealth } from '~/contact/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/** `{ ok, version }` for the smoke test; what the delivery lacks is for the desk, not the world. */
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
