import { appendResponseHeader, getRequest, setResponseHeader } from '@tanstack/react-start/server'
import { clearResultCookies, type FormResult, parseCookieHeader, readFormResult } from './form-result'

/**
 * For the contact page as the server renders it: the result of a form post made without
 * JavaScript, read from the request's cookies and cleared so the message shows once. The page
 * carries its own idempotency key, so it is never cached or shared between visitors.
 */
export function takeFormResult(): FormResult | null {
  const request = getRequest()
  // For this visitor only (its own idempotency key): never shared, and never the per-isolate page cache.
  setResponseHeader('Cache-Control', 'private, no-cache')
  const cookies = parseCookieHeader(request.headers.get('Cookie'))
  const clear = clearResultCookies(cookies, new URL(request.url).protocol === 'https:')
  if (clear.length === 0) return null
  // A page showing a result is not kept at all.
  setResponseHeader('Cache-Control', 'no-store')
  for (const cookie of clear) appendResponseHeader('Set-Cookie', cookie)
  return readFormResult(cookies)
}
