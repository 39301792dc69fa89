import type { JSX } from 'react'
import { metaFor, type ServicePath } from '~/content/pages'
import { absoluteUrl, seo } from '~/lib/seo'
import { site } from '~/site'

/** schema.org JSON-LD objects, rendered through head() as `{ 'script:ld+json': … }`. */
type JsonLd = Record<string, unknown>
type HeadMeta = NonNullable<JSX.IntrinsicElements['meta']>

export function ldJson(data: JsonLd): HeadMeta {
  return { 'script:ld+json': data } as HeadMeta
}

const ORGANIZATION_ID = `${site.url}/#organization`

export function organizationJsonLd(): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': ORGANIZATION_ID,
    name: site.name,
    legalName: site.legalName,
    url: `${site.url}/`,
    logo: absoluteUrl('/icon-512.png'),
    email: site.email,
    telephone: site.phoneE164,
    foundingDate: String(site.foundingYear),
    address: {
      '@type': 'PostalAddress',
      addressLocality: site.location.locality,
      addressRegion: site.location.region,
      addressCountry: site.location.countryCode,
    },
    sameAs: [site.social.twitter, site.social.linkedin, site.social.github, site.social.facebook],
  }
}

/** On the home page only, where Google reads the site's name (developers.google.com, "site names"). */
export function websiteJsonLd(): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    '@id': `${site.url}/#website`,
    name: site.name,
    url: `${site.url}/`,
    inLanguage: 'en',
    publisher: { '@id': ORGANIZATION_ID },
  }
}

export function serviceJsonLd(service: { title: string; description: string; path: string }): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name: service.title,
    description: service.description,
    url: absoluteUrl(service.path),
    serviceType: service.title,
    provider: { '@id': ORGANIZATION_ID },
    areaServed: 'Worldwide',
  }
}

export function productJsonLd(product: { name: string; description: string; url: string }): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: product.name,
    description: product.description,
    url: product.url,
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Web',
    publisher: { '@id': ORGANIZATION_ID },
  }
}

export function breadcrumbJsonLd(items: readonly { name: string; path: string }[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: absoluteUrl(item.path),
    })),
  }
}

export function homeHead() {
  const head = seo(metaFor('/'))
  return { ...head, meta: [...head.meta, ldJson(websiteJsonLd())] }
}

/** Its tags, the Service it describes, and where it sits in the site. */
export function serviceHead(path: ServicePath) {
  const { title, description } = metaFor(path)
  const head = seo({ title, description, path })
  const name = title ?? path
  return {
    ...head,
    meta: [
      ...head.meta,
      ldJson(serviceJsonLd({ title: name, description, path })),
      ldJson(
        breadcrumbJsonLd([
          { name: 'Home', path: '/' },
          { name: 'Services', path: '/services' },
          { name, path },
        ]),
      ),
    ],
  }
}

export function productsHead() {
  const meta = metaFor('/products')
  const head = seo(meta)
  return {
    ...head,
    meta: [
      ...head.meta,
      ldJson(productJsonLd({ name: site.product.name, description: meta.description, url: absoluteUrl('/products') })),
    ],
  }
}
