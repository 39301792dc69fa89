/**
 * What each page renders of its content, in the server's HTML: every service, bullet, card, feature,
 * leader and value the content holds (the content's own counts: tests/unit/content.test.ts).
 */
import { expect, test } from 'vitest'
import { site } from '../../app/site'
import { siteUnderTest } from './support/fixtures'
import { pageAt, textOf } from './support/html'

const worker = siteUnderTest()
const open = async (path: string) => (await pageAt((p) => worker.fetch(p), path)).document

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

test('each service page shows all its cards; the AI page’s are the voice assistant, symbolic AI and document automation', async () => {
  const detailCards: [string, string, number][] = [
    ['/services/devops', 'What we deliver', 6],
    ['/services/ai-solutions', 'What we are building', 3],
    ['/services/automation', 'What we automate', 3],
    ['/services/ai-web-development', 'What we build', 6],
  ]
  for (const [path, section, count] of detailCards)
    expect(cardTitles(await open(path), section), path).toHaveLength(count)
  const cards = items(await open('/services/ai-solutions'), 'What we are building').map((li) => textOf(li))
  expect(cards[0]).toContain(site.product.name)
  expect(cards[1]).toContain('Sanskrit')
  expect(cards[2]).toContain('Document Automation')
})
