import { createFileRoute } from '@tanstack/react-router'
import { absoluteUrl } from '~/lib/seo'

export const Route = createFileRoute('/robots.txt')({
  server: {
    handlers: {
      GET: () =>
        new Response(
          [
            'User-agent: *',
            'Allow: /',
            'Disallow: /api/',
            'Disallow: /admin',
            '',
            `Sitemap: ${absoluteUrl('/sitemap.xml')}`,
            '',
          ].join('\n'),
          {
            headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
          },
        ),
    },
  },
})
