import { loadTurnstile, type TurnstileApi } from '~/components/contact/turnstile-script'
import type { EarlyAccessFormResult } from '~/contact'
import { TURNSTILE_ACTION, TURNSTILE_FIELD } from '~/contact/turnstile'

/** The form's script, fetched on first use: Turnstile's widget, and the post answered in place (the endpoint answers JSON). */

const TOKEN_WAIT_MS = 4_000
interface Widget {
  api: TurnstileApi
  id: string
  token?: string
  waiting: (() => void)[]
}

let widget: Widget | null = null

let starting: Promise<void> | null = null

export function startTurnstile(container: HTMLElement, siteKey: string): Promise<void> {
  starting ??= renderWidget(container, siteKey)
  return starting
}

async function renderWidget(container: HTMLElement, siteKey: string): Promise<void> {
  try {
    const api = await loadTurnstile()
    const state: Widget = { api, id: '', waiting: [] }
    const settle = (token?: string) => {
      state.token = token
      for (const wake of state.waiting.splice(0)) wake()
    }
    state.id =
      api.render(container, {
        sitekey: siteKey,
        action: TURNSTILE_ACTION,
        theme: 'dark',
        appearance: 'interaction-only',
        size: 'flexible',
        callback: settle,
        'expired-callback': () => settle(undefined),
        'error-callback': () => {
          settle(undefined)
          return true
        },
      }) ?? ''
    widget = state
  } catch {
    // No widget (blocked, offline): the signup goes without a token, and no e-mail follows.
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The widget's token; a send while the widget is still loading or working waits for it, up to 4 s. */
async function token(): Promise<string | undefined> {
  if (starting && !widget) await Promise.race([starting, sleep(TOKEN_WAIT_MS)])
  if (!widget || widget.token) return widget?.token
  const current = widget
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, TOKEN_WAIT_MS)
    current.waiting.push(() => {
      clearTimeout(timer)
      resolve()
    })
  })
  return current.token
}

export async function sendSignup(form: HTMLFormElement): Promise<EarlyAccessFormResult> {
  const body = new URLSearchParams()
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') body.set(name, value)
  const solved = await token()
  if (solved) body.set(TURNSTILE_FIELD, solved)
  try {
    const response = await fetch(form.action, {
      method: 'POST',
      body,
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    })
    if (widget) {
      // A token is spent by one post.
      widget.token = undefined
      widget.api.reset(widget.id)
    }
    if (response.ok) return 'sent'
    return response.status === 400 ? 'invalid' : response.status === 429 ? 'busy' : 'failed'
  } catch {
    return 'failed'
  }
}
