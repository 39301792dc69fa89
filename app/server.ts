import { createServerEntry, createStartHandler } from '@tanstack/react-start/server'
import { purgeAuditTrail } from './admin/index.server'
import { deliverDueEnquiries, purgeExpiredEnquiries } from './contact/index.server'
import { createPageRenderer } from './document/render-page.server'
import { runNotices } from './notices/notices.server'
import { errorCause, log } from './server/log.server'
import { acceptingHtml } from './server/negotiation'
import type { WorkerEnv } from './server/runtime.server'
import { site } from './site'
import appCss from './styles/app.css?url'

const startHandler = createStartHandler(createPageRenderer({ stylesheet: appCss, siteName: site.name }))

/**
 * The Worker's entry. `fetch`: Start's request handler with a renderer that answers 500 when a
 * page fails to render (a page asked for by a client that accepts neither HTML nor Markdown is
 * answered with its HTML: app/server/negotiation.ts). `scheduled`: the Cron Trigger (`[triggers]` in wrangler.toml), which
 * deletes enquiries past the retention period and audit lines past theirs, then delivers every
 * stored enquiry whose next attempt is due, then sends the notices that are due (an alert, the
 * daily digest: docs/notices.md).
 */
export default {
  ...createServerEntry({
    fetch: (request, options) => startHandler(acceptingHtml(request), options),
  }),
  async scheduled(_controller: ScheduledController, env: WorkerEnv): Promise<void> {
    try {
      await purgeExpiredEnquiries(env)
    } catch (error) {
      // Deliveries go on; the next run tries the purge again.
      log('error', { event: 'retention_error', cause: errorCause(error) })
    }
    try {
      await purgeAuditTrail(env)
    } catch (error) {
      log('error', { event: 'audit_retention_error', cause: errorCause(error) })
    }
    await deliverDueEnquiries(env)
    await runNotices(env)
  },
}
