/**
 * Site identity: the one place to change the company's name, contact details,
 * social profiles and canonical address. Everything else reads from here (pages, structured data,
 * the e-mail delivery's destination, and `npm run images` for the favicon, manifest and the pages' share cards).
 * Values wrapped in `sample(…)` are stand-ins: production deploys refuse them (scripts/go-live.ts).
 */
export interface SiteConfig {
  /** Company name as shown in the header, footer and page titles. */
  name: string
  /** Legal name for the copyright line and structured data. */
  legalName: string
  /** The flagship voice-assistant product. */
  product: {
    name: string
    /** The product's own website (opens in a new tab from the footer). */
    url: string
  }
  /** Canonical origin, without a trailing slash. Used for canonical URLs, sitemap, Open Graph. */
  url: string
  email: string
  /** Phone as shown to people. */
  phone: string
  /** Phone in E.164 form for tel: links and structured data. */
  phoneE164: string
  location: {
    /** Short form shown on the contact page. */
    display: string
    locality: string
    region: string
    country: string
    countryCode: string
  }
  foundingYear: number
  social: {
    twitter: string
    facebook: string
    linkedin: string
    github: string
  }
  /** Where the Documentation link points until product documentation exists. */
  documentationPath: string
  /** Theme colour for browsers and the web manifest. */
  themeColor: string
}

/**
 * Marks a value that ships as a stand-in and must be replaced before the site goes live.
 *
 * At run time it returns the value unchanged, so pages show it as usual (previews and `npm start`
 * are unaffected). `npm run deploy` and the production deploy in CI run scripts/go-live.ts, which
 * finds every `sample(…)` in app/site.ts and app/content/ and refuses to publish while one remains,
 * printing what to replace. To go live, write the real value without the marker:
 *   phone: sample('+44 7700 900123')   becomes   phone: '+91 …'
 * A value that is already right (the company's name, say) is confirmed the same way: drop the marker.
 *
 * The sample values cannot reach anyone: the phone number is in Ofcom's range kept for drama
 * (07700 900000–900999, never allocated: https://www.ofcom.org.uk/phones-and-broadband/phone-numbers/numbers-for-drama),
 * and every domain is under `.example`, reserved by RFC 2606 (https://www.rfc-editor.org/rfc/rfc2606#section-2).
 */
export function sample<T extends string | number>(value: T): T {
  return value
}

export const site: SiteConfig = {
  name: sample('Akshara Labs'),
  legalName: sample('Akshara Labs Technologies'),
  product: {
    name: 'Vaani AI',
    url: sample('https://vaani.aksharalabs.example'),
  },
  url: sample('https://aksharalabs.example'),
  email: sample('hello@akshara.example'),
  phone: sample('+44 7700 900123'),
  phoneE164: sample('+447700900123'),
  location: {
    display: sample('Rajahmandry, AP'),
    locality: sample('Rajahmandry'),
    region: sample('Andhra Pradesh'),
    country: sample('India'),
    countryCode: sample('IN'),
  },
  foundingYear: sample(2024),
  social: {
    twitter: sample('https://x.aksharalabs.example/aksharalabs'),
    facebook: sample('https://facebook.aksharalabs.example/aksharalabs'),
    linkedin: sample('https://linkedin.aksharalabs.example/company/aksharalabs'),
    github: sample('https://github.aksharalabs.example/aksharalabs'),
  },
  documentationPath: '/coming-soon',
  themeColor: '#0b1020',
}

/**
 * What the site lets automated readers do with its pages, sent in robots.txt as Cloudflare's
 * Content Signals Policy writes it (https://contentsignals.org/,
 * https://blog.cloudflare.com/content-signals-policy/): `search`, building a search index and
 * showing links and short excerpts; `ai-input`, feeding a page into an AI model's answer at the
 * time of the question (retrieval, grounding); `ai-train`, training or fine-tuning a model. Each is
 * 'yes' or 'no'; the terms page says the same in words. The default lets the pages be found and
 * quoted, with a link, and keeps them out of training sets.
 */
export const contentSignals: Readonly<Record<'search' | 'ai-input' | 'ai-train', 'yes' | 'no'>> = {
  search: 'yes',
  'ai-input': 'yes',
  'ai-train': 'no',
}

export interface NavItem {
  label: string
  to: '/' | '/services' | '/products' | '/about' | '/contact'
}

/** Primary navigation, in header order. */
export const mainNav: readonly NavItem[] = [
  { label: 'Home', to: '/' },
  { label: 'Services', to: '/services' },
  { label: 'Products', to: '/products' },
  { label: 'About', to: '/about' },
  { label: 'Contact', to: '/contact' },
]
