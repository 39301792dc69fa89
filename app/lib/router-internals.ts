import type { AnyRouteMatch, AnyRouter } from '@tanstack/react-router'
import { composeSsrBodyScripts, getSsrBodyScriptParts } from '@tanstack/router-core'

/** The one place that reaches into TanStack Router's undocumented internals, each with a fallback in its
 * caller; `tests/unit/router-internals.test.tsx` names any an upgrade changes. */

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

export function renderedMatches(router: AnyRouter): AnyRouteMatch[] | null {
  const matches = internals(router).stores?.matches?.get?.()
  return Array.isArray(matches) ? matches : null
}

export function takeInitialHydrationScripts(router: AnyRouter): (() => BootstrapScripts) | null {
  const ssr = internals(router).serverSsr
  const take = ssr?.takeInitialHydrationScriptTags
  return typeof take === 'function' ? () => take.call(ssr) : null
}

/** Handed out once per request: a second render would get none and its page could not hydrate. */
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

export function markInnermostMatchFailed(router: AnyRouter, error: unknown): boolean {
  const stores = internals(router).stores
  const innermost = stores?.ids?.get?.().at(-1)
  const store = innermost ? stores?.byRoute?.get?.(innermost) : undefined
  if (!store?.set) return false
  store.set((match) => (match ? { ...match, status: 'error', error } : match))
  return true
}

export function cleanUpServerRender(router: AnyRouter): void {
  internals(router).serverSsr?.cleanup?.()
}

export function isNotFoundMatch(match: AnyRouteMatch): boolean {
  return match.status === 'notFound' || (match as { _notFound?: boolean })._notFound === true
}

export { composeSsrBodyScripts, getSsrBodyScriptParts }

export const routerReloadKey = (message: string) => `tanstack_router_reload:${message}`
