/**
 * The company's name, contact details, social profiles and canonical address, in one place (pages,
 * structured data, the e-mails, `npm run images`). Values in `sample(…)` are stand-ins that
 * production deploys refuse (scripts/go-live.ts).
 */
export interface SiteConfig {
  name: string
  legalName: string
  product: {
    name: string
    url: string
  }
  /** Without a trailing slash. */
  url: string
  email: string
  phone: string
  /** E.164, for tel: links and structured data. */
  phoneE164: string
  location: {
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
  /** Until product documentation exists. */
  documentationPath: string
  themeColor: string
}

/**
 * A stand-in that production deploys refuse: scripts/go-live.ts lists every `sample(…)` in
 * app/site.ts and app/content/. To go live, write the real value (or confirm it) without the marker.
 * The samples reach no one: the phone number is in Ofcom's drama range (07700 900000–900999,
 * https://www.ofcom.org.uk/phones-and-broadband/phone-numbers/numbers-for-drama), and every domain
 * is under `.example` (RFC 2606, https://www.rfc-editor.org/rfc/rfc2606#section-2).
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
 * robots.txt's Content Signals (https://contentsignals.org/,
 * https://blog.cloudflare.com/content-signals-policy/): `search` (index, links, excerpts),
 * `ai-input` (a page in a model's answer: retrieval, grounding), `ai-train` (training, fine-tuning).
 * The terms page says the same in words. The default: found and quoted with a link, never trained on.
 */
export const contentSignals: Readonly<Record<'search' | 'ai-input' | 'ai-train', 'yes' | 'no'>> = {
  search: 'yes',
  'ai-input': 'yes',
  'ai-train': 'no',
}
