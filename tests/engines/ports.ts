import { PORT_BASE } from '../support/servers'

/**
 * Ports of what the engine smoke suite starts, 30 above the Playwright suite's base
 * (E2E_PORT_BASE moves both), clear of the Playwright suite's own, so the two can run side by side.
 */
export const ENGINES_PORTS = {
  site: PORT_BASE + 30,
  accessKeys: PORT_BASE + 31,
  accessProxy: PORT_BASE + 32,
  /** WebKitWebDriver; a second one (for the window without scripts) on the next port. */
  webDriver: PORT_BASE + 33,
}

/** What the global set-up hands to each engine's tests. */
export interface EnginesSite {
  /** The README's address: http://localhost:<PORT>, served by `npm start`. */
  origin: string
  /** The same site through the access proxy, which adds the operator's token (for WebKit). */
  operatorOrigin: string
  /** The operator's token printed by `npm run admin-token`. */
  token: string
  /** The stand-in form service's origin (its control API: GET /__requests?email=…). */
  formService: string
  /** The key the site sends the form service. */
  formKey: string
  webDriverPort: number
}

declare module 'vitest' {
  export interface ProvidedContext {
    enginesSite: EnginesSite
  }
}
