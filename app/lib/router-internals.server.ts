import { createSsrStreamResponse, getSsrStatus } from '@tanstack/react-router/ssr/server'

/**
 * The renderer's internals (named with the others in `router-internals.ts`, whose tripwire test
 * covers these too), apart because they come from the router's server entry, which the browser's
 * bundle must not load: `getSsrStatus` (200, 404, 500) and `createSsrStreamResponse` (ties the SSR
 * state to the response, freed when the stream ends).
 */
export { createSsrStreamResponse, getSsrStatus }

/** The internals above that this router version lacks (empty when all are there). For the tripwire test. */
export function missingServerRouterInternals(): string[] {
  const missing: string[] = []
  if (typeof getSsrStatus !== 'function') missing.push('getSsrStatus')
  if (typeof createSsrStreamResponse !== 'function') missing.push('createSsrStreamResponse')
  return missing
}
