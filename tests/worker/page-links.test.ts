// Links go where they say, in the server's HTML.
import { expect, test } from 'vitest'
import { site } from '../../app/site'
import { siteUnderTest } from './support/fixtures'
import { pageAt, textOf } from './support/html'

const worker = siteUnderTest()

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
