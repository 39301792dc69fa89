// Each page's server HTML holds the spec's words and every item the content holds; no inline style, no early
// script, no dead link.
import { expect, test } from 'vitest'
import { serviceDetails } from '../../app/content/service-pages'
import { site } from '../../app/site'
import { PAGES, type PagePath } from '../support/routes'
import { siteUnderTest } from './support/fixtures'
import { pageAt, parseHtml, textOf } from './support/html'

const worker = siteUnderTest()
const open = async (path: string) => (await pageAt((p) => worker.fetch(p), path)).document

/** The strings the spec quotes, page by page; each must be in the server-rendered HTML. A page the spec does not name has none. */
const SPEC_STRINGS: Partial<Record<PagePath, string[]>> = {
  '/': ['Innovate', 'Automate', 'Transform', 'Integration in under 30 minutes'],
  '/services': [
    'Enterprise DevOps & Cloud Automation',
    'AI & SaaS Product Development',
    'Custom & Industrial Automation',
    'AI-Powered Web Development',
    'Learn More',
  ],
  '/products': ['Launching Soon', 'Explore Features', 'Live Demo (Coming Soon)', 'Get Early Access Updates'],
  '/about': ['Innovate', 'Automate', 'Transform', String(site.foundingYear)],
  '/contact': [
    'Get In Touch',
    'Send us a message',
    'Contact Information',
    site.email,
    site.phone,
    site.location.display,
    'Follow Us',
    'Explore Our Flagship AI Product',
    `Visit ${site.product.name}`,
  ],
  '/services/devops': [
    'Enterprise DevOps & Cloud Automation',
    'Our Approach to DevOps',
    'over a decade of experience',
    'Architect Your Solution',
  ],
  '/services/ai-solutions': [
    'AI & SaaS Product Development',
    'From Concept to Creation',
    'Sanskrit',
    'Bring Your AI Idea to Life',
  ],
  '/services/automation': [
    'Custom & Industrial Automation',
    'Engineering for Efficiency',
    'Engineer Your Automation Solution',
  ],
  '/services/ai-web-development': ['AI-Powered Web Development', 'Your Website, Reimagined', 'Start Your Web Project'],
  '/coming-soon': [
    'Coming Soon',
    "We're putting the final touches on our product website. It's going to be worth the wait!",
    'Go Back Home',
  ],
  '/privacy': ['Privacy Policy', site.email],
  '/terms': ['Terms of Service', site.email],
}

test.each(PAGES)(
  "$path answers 200 with a complete page: the spec's text, one h1, no heading level skipped, the header's current link",
  async ({ path, section }) => {
    const { response, document } = await pageAt((p) => worker.fetch(p), path)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/html')
    for (const landmark of ['main', 'header', 'footer'])
      expect(document.querySelectorAll(landmark), landmark).toHaveLength(1)
    expect(document.title).toContain(site.name)
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      new URL(path, `${site.url}/`).toString(),
    )
    const current = [...document.querySelectorAll('nav[aria-label="Main"] a[aria-current="page"]')].map(textOf)
    expect(current).toEqual(section ? [section] : [])
    const main = textOf(document.querySelector('main'))
    for (const text of SPEC_STRINGS[path] ?? []) expect(main, text).toContain(text)
    const levels = [...document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6')].map((h) =>
      Number(h.tagName.slice(1)),
    )
    expect(levels[0]).toBe(1)
    expect(levels.filter((l) => l === 1)).toHaveLength(1)
    for (let i = 1; i < levels.length; i++)
      expect((levels[i] ?? 0) - (levels[i - 1] ?? 0), `h${levels[i - 1]} then h${levels[i]}`).toBeLessThan(2)
  },
)

/** The section named `name` (by aria-labelledby, or else its h2), as a browser names the region. */
function region(document: Document, name: string): Element {
  const section = [...document.querySelectorAll('section')].find((candidate) => {
    const id = candidate.getAttribute('aria-labelledby')
    return textOf(id ? document.getElementById(id) : candidate.querySelector('h2')) === name
  })
  if (!section) throw new Error(`no section named "${name}"`)
  return section
}
const cardTitles = (document: Document, name: string) =>
  [...region(document, name).querySelectorAll('h3')].map((h3) => textOf(h3))
const items = (document: Document, name: string) => [...region(document, name).querySelectorAll('li')]

test('home shows three core services', async () => {
  expect(cardTitles(await open('/'), 'Core services')).toEqual([
    'Enterprise DevOps & Cloud Automation',
    'AI & SaaS Product Development',
    'Custom & Industrial Automation',
  ])
})

test('services shows four services with four bullets and one illustration each', async () => {
  const blocks = [...(await open('/services')).querySelectorAll('main article')]
  expect(blocks).toHaveLength(4)
  for (const block of blocks) {
    expect(block.querySelectorAll('li')).toHaveLength(4)
    expect(block.querySelectorAll('img, svg[role="img"]')).toHaveLength(1)
  }
  expect(textOf(blocks[0])).toContain('Kubernetes and OpenShift')
  expect(textOf(blocks[0])).toContain('Splunk and Datadog')
})

test('products shows 6 core and 9 Pro/Enterprise features, badges, and three use cases', async () => {
  const document = await open('/products')
  expect(items(document, 'Core Features')).toHaveLength(6)
  const pro = items(document, 'Pro/Enterprise Features')
  expect(pro).toHaveLength(9)
  expect(textOf(pro.find((li) => /intent and flow builder/i.test(textOf(li))))).toContain('Coming Soon')
  expect(textOf(pro.find((li) => /custom avatars/i.test(textOf(li))))).toContain('Enterprise')
  expect(cardTitles(document, 'Where it helps')).toEqual([
    'E-commerce Support',
    'Virtual Receptionist for Websites',
    'Healthcare Assistant',
  ])
})

test('about shows its mission, story, three leaders and three values', async () => {
  const document = await open('/about')
  const h2s = [...document.querySelectorAll('h2')].map((h2) => textOf(h2))
  expect(h2s).toEqual(expect.arrayContaining(['Our Mission', 'Our Story']))
  const leaders = items(document, 'Leadership Team')
  expect(leaders).toHaveLength(3)
  for (const leader of leaders) {
    expect(leader.querySelectorAll('h3')).toHaveLength(1)
    expect(leader.querySelectorAll('p')).toHaveLength(2) // role and bio
  }
  expect(cardTitles(document, 'What We Stand For')).toEqual(['Innovate', 'Automate', 'Transform'])
})

test('each service page shows all its cards (the spec’s titles: tests/unit/content); the AI page’s are the voice assistant, symbolic AI and document automation', async () => {
  for (const { service, capabilities } of serviceDetails)
    expect(cardTitles(await open(`/services/${service.slug}`), capabilities.title)).toEqual(
      capabilities.cards.map((card) => card.title),
    )
  const cards = items(await open('/services/ai-solutions'), 'What we are building').map((li) => textOf(li))
  expect(cards[0]).toContain(site.product.name)
  expect(cards[1]).toContain('Sanskrit')
  expect(cards[2]).toContain('Document Automation')
})

test.each(PAGES.map(({ path }) => [path]))(
  '%s: no inline style (the CSP allows none), no dead link; its client code starts after the first paint',
  async (path) => {
    const response = await worker.fetch(path)
    const html = await response.text()
    expect(html.match(/\sstyle="/g) ?? []).toEqual([])
    expect(parseHtml(html).querySelectorAll('a[href="#"], a:not([href])')).toHaveLength(0)
    // No script preloaded or named: the loader, with the request's CSP nonce, starts it.
    expect(html).not.toMatch(/<link[^>]*modulepreload/)
    expect(html).not.toMatch(/<script[^>]*\ssrc=/)
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
    expect(nonce).toBeTruthy()
    expect(html).toContain(`<script nonce="${nonce}">(function(d,s,p){`)
  },
)

test('/services draws the illustrations a phone fetches before the first paint from the page, and links the last one', async () => {
  const { document } = await pageAt((p) => worker.fetch(p), '/services')
  const drawn = [...document.querySelectorAll('svg[role="img"] use')].map((use) => use.getAttribute('href'))
  expect(drawn).toEqual(['#illustration-devops', '#illustration-ai-solutions', '#illustration-automation'])
  for (const id of drawn) expect(document.querySelector(`symbol${id}`), `${id}'s symbol`).not.toBeNull()
  const files = [...document.querySelectorAll('img[src^="/images/services/"]')]
  expect(files.map((img) => [img.getAttribute('src'), img.getAttribute('loading')])).toEqual([
    ['/images/services/ai-web-development.svg', 'lazy'],
  ])
})
