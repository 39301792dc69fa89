/**
 * Site identity: the one place to change the company's name, contact details,
 * social profiles and canonical address. Everything else reads from here.
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

export const site: SiteConfig = {
  name: 'Akshara Labs',
  legalName: 'Akshara Labs Technologies',
  product: {
    name: 'Vaani AI',
    url: 'https://vaani.aksharalabs.in',
  },
  url: 'https://aksharalabs.in',
  email: 'hello@aksharalabs.in',
  phone: '+91 98480 12024',
  phoneE164: '+919848012024',
  location: {
    display: 'Rajahmandry, AP',
    locality: 'Rajahmandry',
    region: 'Andhra Pradesh',
    country: 'India',
    countryCode: 'IN',
  },
  foundingYear: 2024,
  social: {
    twitter: 'https://x.com/aksharalabs',
    facebook: 'https://www.facebook.com/aksharalabs',
    linkedin: 'https://www.linkedin.com/company/aksharalabs',
    github: 'https://github.com/aksharalabs',
  },
  documentationPath: '/coming-soon',
  themeColor: '#0b1020',
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
