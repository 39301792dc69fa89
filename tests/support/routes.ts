/** Every public page of the site, with the header link that should be highlighted on it. */
export const PAGES = [
  { path: '/', section: 'Home' },
  { path: '/services', section: 'Services' },
  { path: '/products', section: 'Products' },
  { path: '/about', section: 'About' },
  { path: '/contact', section: 'Contact' },
  { path: '/services/devops', section: 'Services' },
  { path: '/services/ai-solutions', section: 'Services' },
  { path: '/services/automation', section: 'Services' },
  { path: '/services/ai-web-development', section: 'Services' },
  { path: '/coming-soon', section: null },
  { path: '/privacy', section: null },
  { path: '/terms', section: null },
] as const

export type PagePath = (typeof PAGES)[number]['path']
