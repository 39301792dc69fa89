import { appendResponseHeader, getRequest, setResponseHeader } from '@tanstack/react-start/server'
import { clearOutcomeCookies, type FormOutcome, parseCookieHeader, readOutcome } from './outcome-cookie'

/**
 * Reads the outcome of a form post made without JavaScript from the request's cookies and clears
 * them, so the message shows once. A page carrying an outcome is never cached.
 */
export function takeFormOutcome(): FormOutcome | null {
  const request = getRequest()
  const cookies = parseCookieHeader(request.headers.get('Cookie'))
  const clear = clearOutcomeCookies(cookies, new URL(request.url).protocol === 'https:')
  if (clear.length === 0) return null
  for (const cookie of clear) appendResponseHeader('Set-Cookie', cookie)
  setResponseHeader('Cache-Control', 'no-store')
  return readOutcome(cookies)
}
