/** The company's identity in one place; `sample(…)` values are stand-ins production deploys refuse. */
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

/** A stand-in production deploys refuse; it reaches no one (a drama phone number, `.example` domains). */
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

/** robots.txt's Content Signals (https://contentsignals.org/): found and quoted, never trained on. */
export const contentSignals: Readonly<Record<'search' | 'ai-input' | 'ai-train', 'yes' | 'no'>> = {
  search: 'yes',
  'ai-input': 'yes',
  'ai-train': 'no',
}
