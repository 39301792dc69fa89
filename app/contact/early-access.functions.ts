import { createIsomorphicFn } from '@tanstack/react-start'
import { type EarlyAccessPanel, SIGNUP_PATH } from './early-access-result'

/** Offered where a confirmation can be sent; in the browser a plain GET, keeping the server functions' client off the page. */
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
