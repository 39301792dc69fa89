import { useSyncExternalStore } from 'react'

const subscribeToNothing = () => () => {}

/**
 * A value read from the page in the browser that does not change while the component is shown:
 * `onServer` when the server renders and while React hydrates (it reads the server snapshot then,
 * so the hydrated HTML is the server's), `inBrowser()` from then on, as after an in-site navigation.
 */
export function usePageValue<T>(inBrowser: () => T, onServer: T): T {
  return useSyncExternalStore(subscribeToNothing, inBrowser, () => onServer)
}
