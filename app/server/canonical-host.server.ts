/**
 * `www.` → apex, permanently. When both hostnames are attached to the Worker (wrangler.toml
 * `routes`, docs/operations.md "Custom domain"), a request for any page on `www.<domain>` is
 * answered with a 308 to the same path and query on `https://<domain>`, so there is one address
 * for every page. 308 keeps the method, so a form posted to www is not turned into a GET.
 * Static files are served before the Worker runs and are not redirected; pages link only to the apex.
 */
export function wwwRedirect(request: Request): Response | null {
  const url = new URL(request.url)
  if (!url.hostname.startsWith('www.')) return null
  const target = `https://${url.hostname.slice('www.'.length)}${url.pathname}${url.search}`
  return new Response(null, { status: 308, headers: { Location: target, 'Cache-Control': 'public, max-age=3600' } })
}
