import type { AnyRouteMatch, AnyRouter } from '@tanstack/react-router'
import { composeSsrBodyScripts, getSsrBodyScriptParts } from '@tanstack/router-core'

/**
 * The one place that reaches into TanStack Router's internals: parts typed in router-core's
 * declarations but not documented as API, so a patch release may change them. Everything else in
 * the app uses public API. `tests/unit/router-internals.test.tsx` renders a real router and fails
 * loudly, naming the part, when an upgrade changes one of these; each caller also has a fallback
 * that keeps the page working (named below).
 *
 * - `router.stores.matches` — the rendered matches (paint-first's `<Scripts>`; fallback: Start's
 *   own `<Scripts>`).
 * - `router.stores.ids` and `router.stores.byRoute` — the matches by route, writable (the renderer
 *   marks the innermost one failed so the designed error page renders; fallback: the plain error
 *   document, still a 500).
 * - `router.serverSsr.takeInitialHydrationScriptTags` — the bootstrap `<Scripts>` emits, given once
 *   per request (kept for a second render; paint-first composes with it).
 * - `router.serverSsr.cleanup` — frees the request's SSR state when no stream is sent.
 * - `match._notFound` — set on the match that renders a not-found (with `status: 'notFound'`, the
 *   public field, not always set on the root's match for an unknown URL).
 * - `getSsrBodyScriptParts` and `composeSsrBodyScripts` (router-core) — how `<Scripts>` makes the
 *   body's scripts, exported but not documented (paint-first composes with them; fallback: Start's
 *   own `<Scripts>`).
 * - `tanstack_router_reload:<message>` in sessionStorage — the reload-once key of the router's lazy
 *   route components (preload-recovery sets it, so the two reloads count as one).
 *
 * The renderer's two (`getSsrStatus`, `createSsrStreamResponse`) are in `router-internals.server.ts`:
 * they come from the router's server entry, which the browser's bundle must not load.
 */

type Store<T> = { get(): T; set?(update: (value: T) => T): void }

/** What the bootstrap take returns (router-core does not export the type by name). */
export type BootstrapScripts = ReturnType<NonNullable<AnyRouter['serverSsr']>['takeInitialHydrationScriptTags']>

interface RouterInternals {
  stores?: {
    matches?: Store<AnyRouteMatch[]>
    ids?: Store<string[]>
    byRoute?: { get(id: string): Store<AnyRouteMatch | undefined> | undefined }
  }
  serverSsr?: {
    takeInitialHydrationScriptTags?: () => BootstrapScripts
    cleanup?: () => void
  }
}

const internals = (router: AnyRouter) => router as unknown as RouterInternals

/** Which of the internals above this router lacks (empty when all are there). For the tripwire test. */
export function missingRouterInternals(router: AnyRouter): string[] {
  const r = internals(router)
  const missing: string[] = []
  if (typeof r.stores?.matches?.get !== 'function') missing.push('router.stores.matches')
  if (typeof r.stores?.ids?.get !== 'function') missing.push('router.stores.ids')
  if (typeof r.stores?.byRoute?.get !== 'function') missing.push('router.stores.byRoute')
  if (router.isServer) {
    if (typeof r.serverSsr?.takeInitialHydrationScriptTags !== 'function')
      missing.push('router.serverSsr.takeInitialHydrationScriptTags')
    if (typeof r.serverSsr?.cleanup !== 'function') missing.push('router.serverSsr.cleanup')
  }
  return missing
}

/** The matches being rendered, or null when the store is not there. */
export function renderedMatches(router: AnyRouter): AnyRouteMatch[] | null {
  const matches = internals(router).stores?.matches?.get?.()
  return Array.isArray(matches) ? matches : null
}

/** The request's bootstrap scripts (taken once per request), or null when not there. */
export function takeInitialHydrationScripts(router: AnyRouter): (() => BootstrapScripts) | null {
  const ssr = internals(router).serverSsr
  const take = ssr?.takeInitialHydrationScriptTags
  return typeof take === 'function' ? () => take.call(ssr) : null
}

/**
 * The bootstrap scripts are handed out once per request; a second render would get none and its
 * page could not hydrate. After this, every take gets the first take's scripts.
 */
export function keepInitialHydrationScripts(router: AnyRouter): void {
  const ssr = internals(router).serverSsr
  const take = ssr?.takeInitialHydrationScriptTags
  if (!ssr || typeof take !== 'function') return
  let taken: { tags: BootstrapScripts } | undefined
  ssr.takeInitialHydrationScriptTags = () => {
    taken ??= { tags: take.call(ssr) }
    return taken.tags
  }
}

/** Marks the innermost rendered match as failed, so its route's error component renders. False if it cannot. */
export function markInnermostMatchFailed(router: AnyRouter, error: unknown): boolean {
  const stores = internals(router).stores
  const innermost = stores?.ids?.get?.().at(-1)
  const store = innermost ? stores?.byRoute?.get?.(innermost) : undefined
  if (!store?.set) return false
  store.set((match) => (match ? { ...match, status: 'error', error } : match))
  return true
}

/** Frees the request's server-render state when the router's stream is not sent. */
export function cleanUpServerRender(router: AnyRouter): void {
  internals(router).serverSsr?.cleanup?.()
}

/** True for a match that renders a not-found. */
export function isNotFoundMatch(match: AnyRouteMatch): boolean {
  return match.status === 'notFound' || (match as { _notFound?: boolean })._notFound === true
}

/** The router's own parts of `<Scripts>`: the body's scripts split (route scripts, manifest scripts), and put together again. */
export { composeSsrBodyScripts, getSsrBodyScriptParts }

/** The key under which the router's lazy route components note that they reloaded once after `message`. */
export const routerReloadKey = (message: string) => `tanstack_router_reload:${message}`
