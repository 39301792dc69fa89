/** Every public page, for the sitemap. The end-to-end suite checks this against the router. */
export const SITEMAP_PATHS = [
  '/',
  '/services',
  '/services/devops',
  '/services/ai-solutions',
  '/services/automation',
  '/services/ai-web-development',
  '/products',
  '/about',
  '/contact',
  '/coming-soon',
  '/privacy',
  '/terms',
] as const
