// A relative path with its extension: scripts under plain Node read this list too.
import { site } from '../site.ts'

export interface Page {
  path: string
  /** Without the site name; the home page has none. */
  title?: string
  description: string
}

/** Every public page in sitemap order; free of content, as every route's head() carries it in the first load. */
export const pages = [
  {
    path: '/',
    description: `${site.name} is a technology consultancy for AI-driven automation: DevOps and cloud platforms, AI and SaaS products, industrial automation and AI-powered websites, plus the ${site.product.name} voice assistant.`,
  },
  {
    path: '/services',
    title: 'Services',
    description: `DevOps and cloud automation, AI and SaaS product development, industrial automation and AI-powered web development: what ${site.name} builds and how.`,
  },
  {
    path: '/services/devops',
    title: 'Enterprise DevOps & Cloud Automation',
    description:
      'Kubernetes and OpenShift platforms, CI/CD pipelines, multi-cloud infrastructure and Splunk and Datadog monitoring, designed and run by engineers with enterprise experience.',
  },
  {
    path: '/services/ai-solutions',
    title: 'AI & SaaS Product Development',
    description: `AI products from concept to production: the ${site.product.name} voice assistant, symbolic AI research based on Sanskrit grammar, and AI-assisted document automation.`,
  },
  {
    path: '/services/automation',
    title: 'Custom & Industrial Automation',
    description:
      'Custom monitoring dashboards, large-scale infrastructure automation and business process automation that remove repetitive work and manual errors.',
  },
  {
    path: '/services/ai-web-development',
    title: 'AI-Powered Web Development',
    description:
      'Fast, accessible, search-friendly websites with AI features: smarter UX, conversion optimisation, scalable architecture, SEO and headless CMS.',
  },
  {
    path: '/products',
    title: `${site.product.name} Voice Assistant`,
    description: `${site.product.name} is a voice assistant with animated avatars that embeds into any website in under 30 minutes. See its features, plans and use cases ahead of launch.`,
  },
  {
    path: '/about',
    title: 'About Us',
    description: `${site.name} is a technology consultancy in ${site.location.locality}, ${site.location.region}, founded in ${site.foundingYear}: our mission, our story, our leadership team and the values we work by.`,
  },
  {
    path: '/contact',
    title: 'Contact',
    description: `Get in touch with ${site.name}: write to us about DevOps, automation, AI products or your website, or call us in ${site.location.locality}, ${site.location.region}.`,
  },
  {
    path: '/coming-soon',
    title: 'Coming Soon',
    description: `The ${site.product.name} product website is almost ready. Come back soon to meet our voice assistant for websites.`,
  },
  {
    path: '/privacy',
    title: 'Privacy Policy',
    description: `How ${site.name} handles the personal data you send through our contact form: what we collect, why, where it is processed, how long we keep it and your rights.`,
  },
  {
    path: '/terms',
    title: 'Terms of Service',
    description: `The terms for using the ${site.name} website: what the information on it means, intellectual property, links, liability and the law that applies.`,
  },
] as const satisfies readonly Page[]

export type PagePath = (typeof pages)[number]['path']

/** Each service's title is its page's title. */
export type ServicePath = Extract<PagePath, `/services/${string}`>

type PageAt<P extends PagePath> = Extract<(typeof pages)[number], { path: P }>

export function pageAt<P extends PagePath>(path: P): PageAt<P> {
  const page = pages.find((candidate) => candidate.path === path)
  if (!page) throw new Error(`No page at ${path}`)
  return page as PageAt<P>
}

export function metaFor(path: PagePath): Page & { path: PagePath } {
  const { title, description } = pageAt(path) as Page
  return title === undefined ? { description, path } : { title, description, path }
}
