import { createServerEntry, createStartHandler } from '@tanstack/react-start/server'
import { runScheduled } from './cron.server'
import { createPageRenderer } from './document/render-page.server'
import type { WorkerEnv } from './server/runtime.server'
import { site } from './site'
import appCss from './styles/app.css?url'

/**
 * The Worker's entry. `fetch`: Start's request handler with a renderer that answers 500 when a
 * page fails to render. `scheduled`: the Cron Trigger's run (cron.server.ts).
 */
export default {
  ...createServerEntry({
    fetch: createStartHandler(createPageRenderer({ stylesheet: appCss, siteName: site.name })),
  }),
  async scheduled(_controller: ScheduledController, env: WorkerEnv): Promise<void> {
    await runScheduled(env)
  },
}
