// A relative path with its extension: scripts under plain Node read this list too.
import { site } from '../site.ts'
import type { PageDocument } from './document.ts'

/** Where `llms.txt` lists a page; "Optional" is the proposal's name for links a short context may skip. */
export const LLMS_SECTIONS = ['Services', 'Products', 'Company', 'Optional'] as const

export type FooterColumn = 'company' | 'resources' | 'connect' | 'legal'

/** A link to the page in a footer column: its place there (1 is first) and its words when not the header's. */
export interface FooterPlace {
  column: FooterColumn
  at: number
  label?: string
}

export interface Page {
  path: string
  /** Without the site name; the home page has none. */
  title?: string
  description: string
  /** Its link in the header, whose links follow this list's order. */
  nav?: string
  footer?: readonly FooterPlace[]
  llms: (typeof LLMS_SECTIONS)[number]
  /** Its words as its Markdown twin holds them, from the builder beside its content module: loaded on the server only. */
  document: () => Promise<PageDocument>
}

// Every public page, in sitemap order. The server-only parts are spread in where
// `import.meta.env.SSR` is not false (plain Node too), so the browser's build has no builder chunk.
export const pages = [
  {
    path: '/',
    description: `${site.name} is a technology consultancy for AI-driven automation: DevOps and cloud platforms, AI and SaaS products, industrial automation and AI-powered websites, plus the ${site.product.name} voice assistant.`,
    nav: 'Home',
    ...(import.meta.env?.SSR !== false
      ? { llms: 'Company', document: () => import('./home.document.ts').then((m) => m.homeDocument()) }
      : ({} as never)),
  },
  {
    path: '/services',
    title: 'Services',
    description: `DevOps and cloud automation, AI and SaaS product development, industrial automation and AI-powered web development: what ${site.name} builds and how.`,
    nav: 'Services',
    footer: [{ column: 'company', at: 2 }],
    ...(import.meta.env?.SSR !== false
      ? { llms: 'Services', document: () => import('./services-page.document.ts').then((m) => m.servicesDocument()) }
      : ({} as never)),
  },
  {
    path: '/services/devops',
    title: 'Enterprise DevOps & Cloud Automation',
    description:
      'Kubernetes and OpenShift platforms, CI/CD pipelines, multi-cloud infrastructure and Splunk and Datadog monitoring, designed and run by engineers with enterprise experience.',
    ...(import.meta.env?.SSR !== false
      ? {
          llms: 'Services',
          document: () => import('./service-pages/document.ts').then((m) => m.serviceDocument(m.devopsDetail)),
        }
      : ({} as never)),
  },
  {
    path: '/services/ai-solutions',
    title: 'AI & SaaS Product Development',
    description: `AI products from concept to production: the ${site.product.name} voice assistant, symbolic AI research based on Sanskrit grammar, and AI-assisted document automation.`,
    ...(import.meta.env?.SSR !== false
      ? {
          llms: 'Services',
          document: () => import('./service-pages/document.ts').then((m) => m.serviceDocument(m.aiSolutionsDetail)),
        }
      : ({} as never)),
  },
  {
    path: '/services/automation',
    title: 'Custom & Industrial Automation',
    description:
      'Custom monitoring dashboards, large-scale infrastructure automation and business process automation that remove repetitive work and manual errors.',
    ...(import.meta.env?.SSR !== false
      ? {
          llms: 'Services',
          document: () => import('./service-pages/document.ts').then((m) => m.serviceDocument(m.automationDetail)),
        }
      : ({} as never)),
  },
  {
    path: '/services/ai-web-development',
    title: 'AI-Powered Web Development',
    description:
      'Fast, accessible, search-friendly websites with AI features: smarter UX, conversion optimisation, scalable architecture, SEO and headless CMS.',
    ...(import.meta.env?.SSR !== false
      ? {
          llms: 'Services',
          document: () => import('./service-pages/document.ts').then((m) => m.serviceDocument(m.webDevelopmentDetail)),
        }
      : ({} as never)),
  },
  {
    path: '/products',
    title: `${site.product.name} Voice Assistant`,
    description: `${site.product.name} is a voice assistant with animated avatars that embeds into any website in under 30 minutes. See its features, plans and use cases ahead of launch.`,
    nav: 'Products',
    footer: [{ column: 'company', at: 3 }],
    ...(import.meta.env?.SSR !== false
      ? { llms: 'Products', document: () => import('./product.document.ts').then((m) => m.productsDocument()) }
      : ({} as never)),
  },
  {
    path: '/about',
    title: 'About Us',
    description: `${site.name} is a technology consultancy in ${site.location.locality}, ${site.location.region}, founded in ${site.foundingYear}: our mission, our story, our leadership team and the values we work by.`,
    nav: 'About',
    footer: [{ column: 'company', at: 1 }],
    ...(import.meta.env?.SSR !== false
      ? { llms: 'Company', document: () => import('./about.document.ts').then((m) => m.aboutDocument()) }
      : ({} as never)),
  },
  {
    path: '/contact',
    title: 'Contact',
    description: `Get in touch with ${site.name}: write to us about DevOps, automation, AI products or your website, or call us in ${site.location.locality}, ${site.location.region}.`,
    nav: 'Contact',
    footer: [
      { column: 'resources', at: 3, label: 'Support' },
      { column: 'connect', at: 1 },
    ],
    ...(import.meta.env?.SSR !== false
      ? { llms: 'Company', document: () => import('./contact.document.ts').then((m) => m.contactDocument()) }
      : ({} as never)),
  },
  {
    path: '/coming-soon',
    title: 'Coming Soon',
    description: `The ${site.product.name} product website is almost ready. Come back soon to meet our voice assistant for websites.`,
    ...(import.meta.env?.SSR !== false
      ? { llms: 'Products', document: () => import('./coming-soon.document.ts').then((m) => m.comingSoonDocument()) }
      : ({} as never)),
  },
  {
    path: '/privacy',
    title: 'Privacy Policy',
    description: `How ${site.name} handles the personal data you send through our contact form: what we collect, why, where it is processed, how long we keep it and your rights.`,
    footer: [
      { column: 'resources', at: 2 },
      { column: 'legal', at: 1 },
    ],
    ...(import.meta.env?.SSR !== false
      ? { llms: 'Optional', document: () => import('./legal.document.ts').then((m) => m.legalDocument(m.privacyPage)) }
      : ({} as never)),
  },
  {
    path: '/terms',
    title: 'Terms of Service',
    description: `The terms for using the ${site.name} website: what the information on it means, intellectual property, links, liability and the law that applies.`,
    footer: [{ column: 'legal', at: 2 }],
    ...(import.meta.env?.SSR !== false
      ? { llms: 'Optional', document: () => import('./legal.document.ts').then((m) => m.legalDocument(m.termsPage)) }
      : ({} as never)),
  },
] as const satisfies readonly Page[]

export type PagePath = (typeof pages)[number]['path']

/** Each service's title is its page's title. */
export type ServicePath = Extract<PagePath, `/services/${string}`>

type PageAt<P extends PagePath> = Extract<(typeof pages)[number], { path: P }>

/** `path` is a page's by its type, so the list has it. */
export function pageAt<P extends PagePath>(path: P): PageAt<P> {
  return pages.find((candidate) => candidate.path === path) as PageAt<P>
}

export interface PageMeta {
  path: PagePath
  title?: string
  description: string
}

export function metaFor(path: PagePath): PageMeta {
  const { title, description } = pageAt(path) as Page
  return title === undefined ? { description, path } : { title, description, path }
}

export async function pageDocument(path: PagePath): Promise<PageDocument & { path: PagePath }> {
  return { path, ...(await pageAt(path).document()) }
}

export const mainNav = pages.flatMap((page) => ('nav' in page ? [{ label: page.nav, to: page.path }] : []))

export type NavItem = (typeof mainNav)[number]

/** The links to pages in one footer column, in their places. */
export function footerLinks(column: FooterColumn): { label: string; to: PagePath; at: number }[] {
  return pages
    .flatMap((page: Page & { path: PagePath }) =>
      (page.footer ?? [])
        .filter((place) => place.column === column)
        .map((place) => ({ label: place.label ?? page.nav ?? page.title ?? site.name, to: page.path, at: place.at })),
    )
    .sort((a, b) => a.at - b.at)
}
