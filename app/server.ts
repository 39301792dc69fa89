import { createServerEntry, createStartHandler } from '@tanstack/react-start/server'
import { createPageRenderer } from './server/render-page.server'
import { site } from './site'
import appCss from './styles/app.css?url'

/** The Worker's entry: Start's request handler with a renderer that answers 500 when a page fails to render. */
export default createServerEntry({
  fetch: createStartHandler(createPageRenderer({ stylesheet: appCss, siteName: site.name })),
})
