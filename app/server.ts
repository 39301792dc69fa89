import { createServerEntry, createStartHandler } from '@tanstack/react-start/server'
import { runScheduled } from './cron.server'
import { createPageRenderer } from './document/render-page.server'
import { acceptingHtml } from './server/negotiation'
import type { WorkerEnv } from './server/runtime.server'
import { site } from './site'
import appCss from './styles/app.css?url'

const startHandler = createStartHandler(createPageRenderer({ stylesheet: appCss, siteName: site.name }))

/** `fetch`: Start's handler with a renderer that answers 500 when a page fails; `scheduled`: cron.server.ts. */
export default {
  ...createServerEntry({
    fetch: (request, options) => startHandler(acceptingHtml(request), options),
  }),
  async scheduled(controller: ScheduledController, env: WorkerEnv): Promise<void> {
    // The trigger's time (a run a test asks for at a later time, too); the clock if none was given.
    const at = Number.isFinite(controller.scheduledTime) ? new Date(controller.scheduledTime) : new Date()
    await runScheduled(env, at)
  },
}
