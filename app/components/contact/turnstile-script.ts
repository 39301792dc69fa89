import { TURNSTILE_SCRIPT_URL } from '~/contact/turnstile'

/** The part of Turnstile's browser API the form uses (https://developers.cloudflare.com/turnstile/get-started/client-side-rendering/). */
export interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string
      action: string
      theme: 'dark'
      appearance: 'interaction-only'
      size: 'flexible'
      callback: (token: string) => void
      'expired-callback': () => void
      'error-callback': () => boolean
    },
  ): string | undefined
  reset(widgetId: string): void
}

declare global {
  interface Window {
    turnstile?: TurnstileApi
  }
}

/** Turnstile's script, added once per page (the CSP allows its origin only while Turnstile is on). */
export function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile)
  return new Promise<TurnstileApi>((resolve, reject) => {
    let element = document.querySelector<HTMLScriptElement>(`script[src="${TURNSTILE_SCRIPT_URL}"]`)
    if (!element) {
      element = document.createElement('script')
      element.src = TURNSTILE_SCRIPT_URL
      element.async = true
      document.head.appendChild(element)
    }
    const added = element
    added.addEventListener('load', () =>
      window.turnstile ? resolve(window.turnstile) : reject(new Error('turnstile missing')),
    )
    added.addEventListener('error', () => {
      // A later form may try again.
      added.remove()
      reject(new Error('turnstile script failed'))
    })
  })
}
