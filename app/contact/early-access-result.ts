/**
 * The panel's signup, as much as every page's route tree carries: the words a post without
 * JavaScript comes back with (`/products?early-access=sent`), and the panel's set-up.
 */

export type EarlyAccessFormResult = 'sent' | 'invalid' | 'busy' | 'failed'

export const isEarlyAccessFormResult = (value: unknown): value is EarlyAccessFormResult =>
  value === 'sent' || value === 'invalid' || value === 'busy' || value === 'failed'

export interface EarlyAccessPanel {
  on: boolean
  turnstileSiteKey: string | null
}

export const SIGNUP_PATH = '/api/early-access'
