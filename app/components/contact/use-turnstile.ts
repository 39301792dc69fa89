import { useCallback, useRef } from 'react'
import { getTurnstileSiteKey, TURNSTILE_ACTION } from '~/contact'
import { loadTurnstile, type TurnstileApi } from './turnstile-script'

/** How long a send waits for a widget that is still working before it goes without a token (then held). */
const TOKEN_WAIT_MS = 4_000

type WidgetState = 'off' | 'working' | 'ready' | 'failed'

/** Nothing is requested until `start()` (first focus); without a token the message is still sent, and held. */
export function useTurnstile(siteKey: string | null | undefined) {
  const container = useRef<HTMLDivElement>(null)
  const started = useRef(false)
  const widget = useRef<{ api: TurnstileApi; id: string } | null>(null)
  const current = useRef<string | undefined>(undefined)
  const waiters = useRef<(() => void)[]>([])
  const state = useRef<WidgetState>('off')

  const settle = useCallback((next: WidgetState, token?: string) => {
    current.current = token
    state.current = next
    for (const wake of waiters.current.splice(0)) wake()
  }, [])

  const start = useCallback(async () => {
    if (started.current) return
    started.current = true
    if (siteKey === null) return
    state.current = 'working'
    try {
      const key = siteKey === undefined ? await getTurnstileSiteKey() : siteKey
      if (!key || !container.current) {
        settle('off')
        return
      }
      const api = await loadTurnstile()
      const id = api.render(container.current, {
        sitekey: key,
        action: TURNSTILE_ACTION,
        theme: 'dark',
        appearance: 'interaction-only',
        size: 'flexible',
        callback: (token) => settle('ready', token),
        'expired-callback': () => settle('working'),
        'error-callback': () => {
          settle('failed')
          return true
        },
      })
      if (id) widget.current = { api, id }
    } catch {
      // No widget (blocked, offline, or the key could not be asked for): messages go without a token, held.
      settle('failed')
    }
  }, [siteKey, settle])

  const token = useCallback(async (): Promise<string | undefined> => {
    if (current.current || state.current !== 'working') return current.current
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, TOKEN_WAIT_MS)
      waiters.current.push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
    return current.current
  }, [])

  /** After a message is sent: its token is spent, so the widget makes a new one for the next. */
  const reset = useCallback(() => {
    current.current = undefined
    if (widget.current) {
      state.current = 'working'
      widget.current.api.reset(widget.current.id)
    }
  }, [])

  return { container, start, token, reset }
}
