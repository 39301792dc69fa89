import { createServerEntry, createStartHandler } from '@tanstack/react-start/server'
import { runScheduled } from './cron.server'
import { createPageRenderer } from './document/render-page.server'
import { pageFromCache, rememberAnswer } from './server/html-cache.server'
import { requestIdFor } from './server/log.server'
import { acceptingHtml } from './server/negotiation'
import type { WorkerEnv } from './server/runtime.server'
import { createNonce } from './server/security-headers.server'
import { site } from './site'
import appCss from './styles/app.css?url'

const startHandler = createStartHandler(createPageRenderer({ stylesheet: appCss, siteName: site.name }))

const serverEntry = createServerEntry({
  fetch: (request, options) => startHandler(acceptingHtml(request), options),
})

/** `fetch`: a page the page cache holds, answered as its first answer left (app/server/html-cache.server.ts);
 * else Start's handler with a renderer that answers 500 when a page fails. `scheduled`: cron.server.ts. */
export default {
  async fetch(...args: Parameters<typeof serverEntry.fetch>): Promise<Response> {
    const [request] = args
    const cached = pageFromCache(request, { nonce: createNonce, requestId: requestIdFor })
    if (cached) return cached
    return rememberAnswer(request, await serverEntry.fetch(...args))
  },
  async scheduled(controller: ScheduledController, env: WorkerEnv): Promise<void> {
    // The trigger's time (a run a test asks for at a later time, too); the clock if none was given.
    const at = Number.isFinite(controller.scheduledTime) ? new Date(controller.scheduledTime) : new Date()
    await runScheduled(env, at)
  },
}
