import { createFileRoute } from '@tanstack/react-router'
import { pages } from '~/content/pages'
import { absoluteUrl } from '~/lib/seo'

export function sitemapXml(): string {
  const urls = pages.map(
    ({ path }) =>
      `  <url><loc>${absoluteUrl(path)}</loc><changefreq>monthly</changefreq><priority>${path === '/' ? '1.0' : '0.7'}</priority></url>`,
  )
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n')
}

export const Route = createFileRoute('/sitemap.xml')({
  server: {
    handlers: {
      GET: () =>
        new Response(sitemapXml(), {
          headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
        }),
    },
  },
})
