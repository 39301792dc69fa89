/** What every page's route tree carries of the signup: the no-JavaScript result's words and the panel's set-up. */

export type EarlyAccessFormResult = 'sent' | 'invalid' | 'busy' | 'failed'

export const isEarlyAccessFormResult = (value: unknown): value is EarlyAccessFormResult =>
  value === 'sent' || value === 'invalid' || value === 'busy' || value === 'failed'

export interface EarlyAccessPanel {
  on: boolean
  turnstileSiteKey: string | null
}

export const SIGNUP_PATH = '/api/early-access'
