import { useSyncExternalStore } from 'react'

const subscribeToNothing = () => () => {}

/** `onServer` on the server and while hydrating (so the HTML matches), `inBrowser()` from then on. */
export function usePageValue<T>(inBrowser: () => T, onServer: T): T {
  return useSyncExternalStore(subscribeToNothing, inBrowser, () => onServer)
}
