/**
 * `www.` → apex with a 308 (docs/operations/custom-domain.md): one address for every page, and
 * 308 keeps the method, so a form posted to www is not turned into a GET. Static files are served
 * before the Worker runs and are not redirected; pages link only to the apex.
 */
export function wwwRedirect(request: Request): Response | null {
  const url = new URL(request.url)
  if (!url.hostname.startsWith('www.')) return null
  const target = `https://${url.hostname.slice('www.'.length)}${url.pathname}${url.search}`
  return new Response(null, { status: 308, headers: { Location: target, 'Cache-Control': 'public, max-age=3600' } })
}
