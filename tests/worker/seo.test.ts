// robots.txt, the sitemap, each page's JSON-LD and the 404's noindex; the desk kept out; links go where they say.
import { expect, test } from 'vitest'
import { contentSignals, site } from '../../app/site'
import { PAGES } from '../support/routes'
import { siteUnderTest } from './support/fixtures'
import { jsonLd, pageAt, parseHtml, textOf } from './support/html'

const worker = siteUnderTest()
const ldOf = async (path: string) => jsonLd(await (await worker.fetch(path)).text())

test('robots.txt allows crawling, points to the sitemap and disallows the desk', async () => {
  const res = await worker.fetch('/robots.txt')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/plain')
  const text = await res.text()
  expect(text).toContain('User-agent: *')
  expect(text).toContain(`Sitemap: ${site.url}/sitemap.xml`)
  expect(text).toContain('Disallow: /admin')
  // Cloudflare's Content Signals Policy: one line in the group, every signal from app/site.ts.
  const group = text.slice(text.indexOf('User-agent: *'))
  expect(group).toMatch(/^Content-Signal: search=(yes|no), ai-input=(yes|no), ai-train=(yes|no)$/m)
  expect(group).toContain(
    `Content-Signal: search=${contentSignals.search}, ai-input=${contentSignals['ai-input']}, ai-train=${contentSignals['ai-train']}`,
  )
})

test('the terms page says what each content signal means, as robots.txt sends it', async () => {
  const terms = await (await worker.fetch('/terms.md')).text()
  const section = terms.slice(terms.indexOf('## Automated use'))
  for (const [signal, value] of Object.entries(contentSignals)) expect(section).toContain(`${signal}: ${value}.`)
  expect(await (await worker.fetch('/robots.txt')).text()).toContain(`${site.url}/terms#automated-use`)
})

test('sitemap.xml lists every public page at its canonical URL, and nothing else (no desk)', async () => {
  const res = await worker.fetch('/sitemap.xml')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('xml')
  const xml = await res.text()
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
  expect(new Set(locs)).toEqual(new Set(PAGES.map(({ path }) => new URL(path, `${site.url}/`).toString())))
  expect(xml).not.toContain('/admin')
})

test('every page describes the organization in valid JSON-LD', async () => {
  for (const { path } of PAGES) {
    const org = (await ldOf(path)).find((d) => d['@type'] === 'Organization')
    expect(org, path).toBeTruthy()
    expect(org).toMatchObject({
      name: site.name,
      url: `${site.url}/`,
      email: site.email,
      telephone: site.phoneE164,
      address: { addressLocality: 'Rajahmandry', addressRegion: 'Andhra Pradesh', addressCountry: 'IN' },
    })
    expect(org?.sameAs).toEqual(expect.arrayContaining([site.social.linkedin, site.social.github]))
  }
})

test('an unknown path answers 404 with a designed page that links onwards and is kept out of search', async () => {
  const res = await worker.fetch('/missing-page')
  expect(res.status).toBe(404)
  const html = await res.text()
  expect(html).toMatch(/<meta name="robots" content="noindex[^"]*"/)
  expect(html).not.toContain('rel="canonical"')
  const document = parseHtml(html)
  expect(textOf(document.querySelector('h1'))).toBe('Page not found')
  const links = [...document.querySelectorAll('main a')].map((a) => [textOf(a), a.getAttribute('href')])
  for (const [name, href] of [
    ['Back to the home page', '/'],
    ['Services', '/services'],
    ['Contact', '/contact'],
  ])
    expect(links.find(([text]) => text?.includes(name ?? ''))?.[1], name).toBe(href)
})

const SERVICE_PAGES = PAGES.map(({ path }) => path).filter((path) => path.startsWith('/services/'))

test('each service page describes its Service and its place in the site, matching what the page shows', async () => {
  expect(SERVICE_PAGES).toHaveLength(4)
  for (const path of SERVICE_PAGES) {
    const { html, document } = await pageAt((p) => worker.fetch(p), path)
    const heading = textOf(document.querySelector('h1'))
    const data = jsonLd(html)
    const service = data.find((d) => d['@type'] === 'Service')
    expect(service, path).toMatchObject({
      name: heading,
      url: `${site.url}${path}`,
      provider: { '@id': `${site.url}/#organization` },
    })
    expect(String(service?.description)).toBe(
      document.querySelector('meta[name="description"]')?.getAttribute('content'),
    )
    const crumbs = data.find((d) => d['@type'] === 'BreadcrumbList')
    expect(crumbs?.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Home', item: `${site.url}/` },
      { '@type': 'ListItem', position: 2, name: 'Services', item: `${site.url}/services` },
      { '@type': 'ListItem', position: 3, name: heading, item: `${site.url}${path}` },
    ])
  }
})

test('the products page describes the voice assistant as a SoftwareApplication', async () => {
  const app = (await ldOf('/products')).find((d) => d['@type'] === 'SoftwareApplication')
  expect(app).toMatchObject({ name: site.product.name, url: `${site.url}/products`, operatingSystem: 'Web' })
  expect(String(app?.description)).toContain('under 30 minutes')
  for (const path of ['/about', '/services']) {
    const types = (await ldOf(path)).map((d) => d['@type'])
    expect(types, path).toEqual(['Organization'])
  }
})

test('the home page names the site as a WebSite, published by the organization', async () => {
  const data = await ldOf('/')
  expect(data.map((d) => d['@type'])).toEqual(['Organization', 'WebSite'])
  expect(data.find((d) => d['@type'] === 'WebSite')).toMatchObject({
    name: site.name,
    url: `${site.url}/`,
    publisher: { '@id': `${site.url}/#organization` },
  })
})

/** The hrefs of the links in `scope` whose name (aria-label, else text) is `name`, or else contains it. */
async function hrefsOf(path: string, scope: string, name: string): Promise<string[]> {
  const { document } = await pageAt((p) => worker.fetch(p), path)
  const links = [...document.querySelectorAll(`${scope} a`)].map((a) => ({
    name: a.getAttribute('aria-label') ?? textOf(a),
    href: a.getAttribute('href') ?? '',
  }))
  const exact = links.filter((link) => link.name === name)
  return (exact.length ? exact : links.filter((link) => link.name.includes(name))).map((link) => link.href)
}

const LINKS: [from: string, scope: string, name: string, to: string][] = [
  ['/', 'main', 'Explore Our Services', '/services'],
  ['/', 'main', 'See Our Products', '/products'],
  ['/', 'main', 'Enterprise DevOps & Cloud Automation', '/services/devops'],
  ['/', 'main', 'AI & SaaS Product Development', '/services/ai-solutions'],
  ['/', 'main', 'Custom & Industrial Automation', '/services/automation'],
  ['/', 'main', `Discover ${site.product.name}`, '/coming-soon'],
  ['/services', 'main', 'Learn More about Enterprise DevOps & Cloud Automation', '/services/devops'],
  ['/services', 'main', 'Learn More about AI & SaaS Product Development', '/services/ai-solutions'],
  ['/services', 'main', 'Learn More about Custom & Industrial Automation', '/services/automation'],
  ['/services', 'main', 'Learn More about AI-Powered Web Development', '/services/ai-web-development'],
  ['/services/devops', 'main', 'Architect Your Solution', '/contact?subject=devops'],
  ['/services/ai-solutions', 'main', 'Bring Your AI Idea to Life', '/contact'],
  ['/services/automation', 'main', 'Engineer Your Automation Solution', '/contact?subject=automation'],
  ['/services/ai-web-development', 'main', 'Start Your Web Project', '/contact?subject=website'],
  ['/services/automation', 'nav[aria-label="Breadcrumb"]', 'Services', '/services'],
  ['/products', 'main', 'Get Early Access Updates', '/contact?subject=voice-ai'],
  ['/contact', 'main', site.email, `mailto:${site.email}`],
  ['/contact', 'main', site.phone, `tel:${site.phoneE164}`],
  ['/contact', 'main', 'Twitter', site.social.twitter],
  ['/contact', 'main', 'Facebook', site.social.facebook],
  ['/contact', 'main', 'LinkedIn', site.social.linkedin],
  ['/contact', 'main', 'GitHub', site.social.github],
  ['/contact', 'main', `Visit ${site.product.name}`, '/coming-soon'],
  ['/coming-soon', 'main', 'Go Back Home', '/'],
  ['/', 'footer', 'About', '/about'],
  ['/', 'footer', 'Services', '/services'],
  ['/', 'footer', 'Products', '/products'],
  ['/', 'footer', 'Documentation', site.documentationPath],
  ['/', 'footer', 'Support', '/contact'],
  ['/', 'footer', 'Contact', '/contact'],
  ['/', 'footer', 'Twitter', site.social.twitter],
  ['/', 'footer', 'LinkedIn', site.social.linkedin],
  ['/', 'footer', 'GitHub', site.social.github],
  ['/', 'footer', 'Terms of Service', '/terms'],
]

test.each(LINKS)('%s: %s’s “%s” links to %s', async (from, scope, name, to) => {
  expect(await hrefsOf(from, scope, name)).toContain(to)
})

test('the footer: both Privacy Policy links, the product site in a new tab, the year, no dead link', async () => {
  expect(await hrefsOf('/', 'footer', 'Privacy Policy')).toEqual(['/privacy', '/privacy'])
  const { document } = await pageAt((p) => worker.fetch(p), '/')
  const footer = document.querySelector('footer')
  const product = [...(footer?.querySelectorAll('a') ?? [])].find((a) => a.getAttribute('href') === site.product.url)
  expect(product?.getAttribute('target')).toBe('_blank')
  expect(product?.getAttribute('rel')).toBe('noopener noreferrer')
  expect(textOf(footer)).toContain(`© ${site.foundingYear}`)
})

test('contact: three ways to reach the company and four profiles; products: Live Demo is disabled and says why', async () => {
  const contact = (await pageAt((p) => worker.fetch(p), '/contact')).document
  const region = (name: string) =>
    [...contact.querySelectorAll('section')].find((s) =>
      textOf(contact.getElementById(s.getAttribute('aria-labelledby') ?? '') ?? s.querySelector('h2')).includes(name),
    )
  expect(region('Contact Information')?.querySelectorAll('li')).toHaveLength(3)
  expect(textOf(region('Contact Information'))).toContain(site.location.display)
  expect(region('Follow Us')?.querySelectorAll('a')).toHaveLength(4)

  const products = (await pageAt((p) => worker.fetch(p), '/products')).document
  const demo = [...products.querySelectorAll('button')].find((b) => textOf(b).includes('Live Demo (Coming Soon)'))
  expect(demo?.hasAttribute('disabled')).toBe(true)
  const described = products.getElementById(demo?.getAttribute('aria-describedby') ?? '')
  expect(textOf(described)).toBe('The live demo opens at launch.')
})
