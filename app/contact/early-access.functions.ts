import { createIsomorphicFn } from '@tanstack/react-start'
import { type EarlyAccessPanel, SIGNUP_PATH } from './early-access-result'

/**
 * The products panel's form is offered only where a confirmation can be sent; else its button opens
 * the contact form. In the browser (an in-site visit) it asks the signup endpoint: a plain GET, so
 * the server functions' client stays out of the page's first load.
 */
export const loadEarlyAccessPanel = createIsomorphicFn()
  .server(async (): Promise<EarlyAccessPanel> => {
    const { earlyAccessPanel } = await import('./early-access-post.server')
    const { workerEnv } = await import('~/server/runtime.server')
    return earlyAccessPanel(await workerEnv())
  })
  .client(
    async (): Promise<EarlyAccessPanel> =>
      fetch(SIGNUP_PATH, { headers: { Accept: 'application/json' } })
        .then((response) =>
          response.ok ? (response.json() as Promise<EarlyAccessPanel>) : { on: false, turnstileSiteKey: null },
        )
        .catch(() => ({ on: false, turnstileSiteKey: null })),
  )
