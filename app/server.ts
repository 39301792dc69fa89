import { createServerEntry, createStartHandler } from '@tanstack/react-start/server'
import type { ContactEnv } from './contact/deliveries/types'
import { deliverDueEnquiries } from './contact/index.server'
import { purgeExpiredEnquiries, type RetentionEnv } from './contact/retention.server'
import { errorCause, log } from './server/log.server'
import { createPageRenderer } from './server/render-page.server'
import { site } from './site'
import appCss from './styles/app.css?url'

/**
 * The Worker's entry. `fetch`: Start's request handler with a renderer that answers 500 when a
 * page fails to render. `scheduled`: the Cron Trigger (`[triggers]` in wrangler.toml), which
 * deletes enquiries past the retention period, then delivers every stored enquiry whose next
 * attempt is due.
 */
export default {
  ...createServerEntry({
    fetch: createStartHandler(createPageRenderer({ stylesheet: appCss, siteName: site.name })),
  }),
  async scheduled(_controller: ScheduledController, env: ContactEnv & RetentionEnv): Promise<void> {
    try {
      await purgeExpiredEnquiries(env)
    } catch (error) {
      // Deliveries go on; the next run tries the purge again.
      log('error', { event: 'retention_error', cause: errorCause(error) })
    }
    await deliverDueEnquiries(env)
  },
}
