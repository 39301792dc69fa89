import { appendResponseHeader, getRequest, setResponseHeader } from '@tanstack/react-start/server'
import { clearResultCookies, type FormResult, parseCookieHeader, readFormResult } from './form-result'

/**
 * For the contact page as the server renders it: the result of a form post made without
 * JavaScript, read from the request's cookies and cleared so the message shows once. The page
 * carries its own idempotency key, so it is never cached or shared between visitors.
 */
export function takeFormResult(): FormResult | null {
  const request = getRequest()
  setResponseHeader('Cache-Control', 'no-store')
  const cookies = parseCookieHeader(request.headers.get('Cookie'))
  const clear = clearResultCookies(cookies, new URL(request.url).protocol === 'https:')
  if (clear.length === 0) return null
  for (const cookie of clear) appendResponseHeader('Set-Cookie', cookie)
  return readFormResult(cookies)
}
