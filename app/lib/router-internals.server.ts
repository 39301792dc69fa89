import { createSsrStreamResponse, getSsrStatus } from '@tanstack/react-router/ssr/server'

/** The renderer's internals, apart because the router's server entry must stay out of the browser's bundle. */
export { createSsrStreamResponse, getSsrStatus }

/** The internals above that this router version lacks (empty when all are there). For the tripwire test. */
export function missingServerRouterInternals(): string[] {
  const missing: string[] = []
  if (typeof getSsrStatus !== 'function') missing.push('getSsrStatus')
  if (typeof createSsrStreamResponse !== 'function') missing.push('createSsrStreamResponse')
  return missing
}
