/** `www.` → apex with a 308: one address per page, and a form posted to www stays a POST. */
export function wwwRedirect(request: Request): Response | null {
  const url = new URL(request.url)
  if (!url.hostname.startsWith('www.')) return null
  const target = `https://${url.hostname.slice('www.'.length)}${url.pathname}${url.search}`
  return new Response(null, { status: 308, headers: { Location: target, 'Cache-Control': 'public, max-age=3600' } })
}
