import { appendResponseHeader, getRequest, setResponseHeader } from '@tanstack/react-start/server'
import { clearOutcomeCookies, type FormOutcome, parseCookieHeader, readOutcome } from './outcome-cookie'

/**
 * For the contact page as the server renders it: the outcome of a form post made without
 * JavaScript, read from the request's cookies and cleared so the message shows once. The page
 * carries its own idempotency key, so it is never cached or shared between visitors.
 */
export function takeFormOutcome(): FormOutcome | null {
  const request = getRequest()
  setResponseHeader('Cache-Control', 'no-store')
  const cookies = parseCookieHeader(request.headers.get('Cookie'))
  const clear = clearOutcomeCookies(cookies, new URL(request.url).protocol === 'https:')
  if (clear.length === 0) return null
  for (const cookie of clear) appendResponseHeader('Set-Cookie', cookie)
  return readOutcome(cookies)
}
