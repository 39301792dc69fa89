import { createFileRoute } from '@tanstack/react-router'
import { publicHealth } from '~/contact/index.server'
import { methodNotAllowed, replyResponse } from '~/server/reply'
import { workerRuntime } from '~/server/runtime.server'

/** `{ ok, version }` for the smoke test, 503 when the enquiries table cannot be read; the delivery's set-up is for the desk. */
export const Route = createFileRoute('/api/health')({
  server: {
    handlers: {
      GET: async () => {
        const { env } = await workerRuntime()
        const health = await publicHealth(env)
        return Response.json(
          { ...health, version: env.CF_VERSION_METADATA?.id ?? null },
          { status: health.ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
        )
      },
      ANY: () => replyResponse(methodNotAllowed('GET')),
    },
  },
})
