import { createSsrStreamResponse, getSsrStatus } from '@tanstack/react-router/ssr/server'

/**
 * The router internals the page renderer relies on, beside `router-internals.ts` (which names them
 * with the others, and whose tripwire test covers these too). Apart from it because they come from
 * the router's server entry, which the browser's bundle, where the other file goes too, must not load.
 *
 * - `getSsrStatus` — the status the router's matches call for (200, 404, 500).
 * - `createSsrStreamResponse` — hands the rendered stream to the router, which ties its SSR state to
 *   the response (and frees it when the stream ends).
 */
export { createSsrStreamResponse, getSsrStatus }

/** The internals above that this router version lacks (empty when all are there). For the tripwire test. */
export function missingServerRouterInternals(): string[] {
  const missing: string[] = []
  if (typeof getSsrStatus !== 'function') missing.push('getSsrStatus')
  if (typeof createSsrStreamResponse !== 'function') missing.push('createSsrStreamResponse')
  return missing
}
