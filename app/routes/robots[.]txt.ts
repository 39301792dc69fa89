import { createFileRoute } from '@tanstack/react-router'
import { absoluteUrl } from '~/lib/seo'
import { contentSignals } from '~/site'

export const Route = createFileRoute('/robots.txt')({
  server: {
    handlers: {
      GET: () =>
        new Response(
          [
            '# Content signals (https://contentsignals.org/): what automated readers may do with these',
            `# pages. What each one means: ${absoluteUrl('/terms')}#automated-use`,
            'User-agent: *',
            `Content-Signal: ${Object.entries(contentSignals)
              .map(([signal, value]) => `${signal}=${value}`)
              .join(', ')}`,
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
