import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { aboutPage, team, values } from '~/content/about'
import { contactPage, socialLinks } from '~/content/contact'
import { homePage } from '~/content/home'
import { longDate } from '~/content/long-date'
import { metaFor, pages } from '~/content/pages'
import { privacyPage } from '~/content/privacy'
import { avatarImage, featureGroups, productsPage, useCases, voiceAssistant } from '~/content/product'
import {
  aiSolutionsDetail,
  automationDetail,
  devopsDetail,
  serviceDetails,
  webDevelopmentDetail,
} from '~/content/service-pages'
import { coreServices, services } from '~/content/services'
import { termsPage } from '~/content/terms'
import type { Illustration } from '~/content/types'
import { site } from '~/site'

/** Every string reachable from a value, however deeply nested. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings)
  return []
}

// Every module under app/content, each export of it.
const allContent = Object.values(import.meta.glob('../../app/content/**/*.ts', { eager: true }))

describe('services', () => {
  it('lists the four services of the spec, in order, each with its page', () => {
    expect(services.map((s) => [s.title, s.path])).toEqual([
      ['Enterprise DevOps & Cloud Automation', '/services/devops'],
      ['AI & SaaS Product Development', '/services/ai-solutions'],
      ['Custom & Industrial Automation', '/services/automation'],
      ['AI-Powered Web Development', '/services/ai-web-development'],
    ])
  })

  it('gives every service exactly four feature bullets, a description, an icon and an image', () => {
    for (const service of services) {
      expect(service.features, service.title).toHaveLength(4)
      expect(new Set(service.features).size, service.title).toBe(4)
      expect(service.description.length, service.title).toBeGreaterThan(80)
      expect(service.icon, service.title).toBeTruthy()
      expect(service.image.alt.length, service.title).toBeGreaterThan(20)
    }
  })

  it('names Kubernetes and OpenShift, CI/CD, multi-cloud, and Splunk and Datadog in the DevOps bullets', () => {
    expect(devopsDetail.service.features).toEqual([
      expect.stringMatching(/Kubernetes and OpenShift/),
      expect.stringMatching(/CI\/CD pipelines/),
      expect.stringMatching(/Multi-cloud/i),
      expect.stringMatching(/Splunk and Datadog/),
    ])
  })

  it('features DevOps, AI solutions and automation as the three core services on the home page', () => {
    expect(coreServices).toEqual(services.slice(0, 3))
  })
})

describe('service detail pages', () => {
  it('use the spec titles, section titles and card titles (6, 3 and 6 cards beside the AI page)', () => {
    const expected = [
      {
        detail: devopsDetail,
        section: 'Our Approach to DevOps',
        cards: [
          'Enterprise Kubernetes & OpenShift',
          'Advanced CI/CD Pipelines',
          'Multi-Cloud & Hybrid Infrastructure',
          'Comprehensive Monitoring & Logging',
          'Infrastructure as Code',
          'Containerization with Docker',
        ],
      },
      { detail: aiSolutionsDetail, section: 'From Concept to Creation', cards: null },
      {
        detail: automationDetail,
        section: 'Engineering for Efficiency',
        cards: ['Custom Monitoring Dashboards', 'Large-Scale Infrastructure Automation', 'Business Process Automation'],
      },
      {
        detail: webDevelopmentDetail,
        section: 'Your Website, Reimagined',
        cards: [
          'AI-Enhanced UX',
          'Intelligent Conversion Rate Optimization',
          'High-Performance Scalable Architecture',
          'Integrated SEO & Content Strategy',
          'Custom AI Feature Integration',
          'Headless CMS & API-First Design',
        ],
      },
    ]
    for (const { detail, section, cards } of expected) {
      expect(detail.approach.title).toBe(section)
      if (cards) expect(detail.capabilities.cards.map((c) => c.title)).toEqual(cards)
    }
  })

  it('describe the voice assistant, the Sanskrit-grammar symbolic AI and document automation on the AI page', () => {
    expect(aiSolutionsDetail.capabilities.cards).toHaveLength(3)
    const [voice, symbolic, documents] = aiSolutionsDetail.capabilities.cards.map((c) => `${c.title} ${c.description}`)
    expect(voice).toMatch(new RegExp(`${site.product.name}.*voice assistant.*avatar`, 'is'))
    expect(symbolic).toMatch(/(?=.*symbolic AI)(?=.*Sanskrit)(?=.*Panini)/is)
    expect(documents).toMatch(/document automation/i)
  })

  it('mention over a decade of experience with large clients, without naming any', () => {
    expect(devopsDetail.approach.paragraphs.join(' ')).toMatch(/over a decade of experience.*large/i)
  })

  it('call to action with the spec labels, preselecting the matching contact subject', () => {
    expect(serviceDetails.map((d) => [d.cta.label, d.cta.subject])).toEqual([
      ['Architect Your Solution', 'devops'],
      ['Bring Your AI Idea to Life', undefined],
      ['Engineer Your Automation Solution', 'automation'],
      ['Start Your Web Project', 'website'],
    ])
  })

  it('are titled in search results by their service', () => {
    for (const { service } of serviceDetails) expect(metaFor(service.path).title).toBe(service.title)
  })
})

describe('product', () => {
  it('has a feature matrix of 6 core and 9 Pro/Enterprise features', () => {
    expect(featureGroups.map((g) => [g.category, g.items.length])).toEqual([
      ['Core Features', 6],
      ['Pro/Enterprise Features', 9],
    ])
  })

  it('lists the Pro/Enterprise features the spec names, with their badges', () => {
    const pro = featureGroups[1]?.items ?? []
    const find = (pattern: RegExp) => pro.filter((item) => pattern.test(item.label))
    const named = ['form filling and appointment booking', 'premium cloud voice engine', 'premium avatars']
    for (const words of [...named, 'training dashboard', 'priority support'])
      expect(find(new RegExp(words, 'i')), words).toHaveLength(1)
    expect(find(/intent and flow builder/i).map((i) => i.badge)).toEqual(['Coming Soon'])
    expect(find(/custom avatars/i).map((i) => i.badge)).toEqual(['Enterprise'])
    expect(featureGroups[0]?.items.every((item) => !item.badge)).toBe(true)
  })

  it('has the three use cases, the banner, the early-access button and integration in under 30 minutes', () => {
    const titles = ['E-commerce Support', 'Virtual Receptionist for Websites', 'Healthcare Assistant']
    expect(useCases.map((u) => u.title)).toEqual(titles)
    for (const useCase of useCases) expect(useCase.description.length).toBeGreaterThan(60)
    expect(productsPage).toMatchObject({
      banner: { label: 'Launching Soon' },
      future: { label: 'Get Early Access Updates' },
    })
    expect(voiceAssistant.tagline).toMatch(/under 30 minutes/)
  })
})

describe('about', () => {
  it('has three leaders, each with a name, a role and a bio', () => {
    expect(team).toHaveLength(3)
    expect(new Set(team.map((m) => m.name)).size).toBe(3)
    expect(new Set(team.map((m) => m.role)).size).toBe(3)
    for (const member of team) {
      expect(member.name.split(' ').length).toBeGreaterThanOrEqual(2)
      expect(member.role.length).toBeGreaterThan(3)
      expect(member.bio.length).toBeGreaterThan(80)
    }
  })

  it('has the three values Innovate, Automate and Transform, the hero words too, without full stops', () => {
    expect(values.map((v) => v.title)).toEqual(['Innovate', 'Automate', 'Transform'])
    expect(homePage.hero.words).toEqual(['Innovate', 'Automate', 'Transform'])
  })

  it('tells the story from websites in the founding year to DevOps, automation and AI', () => {
    const story = aboutPage.story.paragraphs.join(' ')
    for (const words of [String(site.foundingYear), 'websites', 'DevOps', 'automation', 'AI'])
      expect(story).toContain(words)
  })
})

describe('contact', () => {
  it('uses the spec headings and the product name on the promo button', () => {
    expect(contactPage).toMatchObject({
      title: 'Get In Touch',
      info: { title: 'Contact Information' },
      follow: { title: 'Follow Us' },
      promo: { title: 'Explore Our Flagship AI Product', label: `Visit ${site.product.name}` },
    })
  })

  it('links the four social profiles from the site configuration', () => {
    expect(socialLinks.map((s) => [s.label, s.href])).toEqual([
      ['Twitter', site.social.twitter],
      ['Facebook', site.social.facebook],
      ['LinkedIn', site.social.linkedin],
      ['GitHub', site.social.github],
    ])
  })
})

describe('page titles and descriptions', () => {
  it('exist for every page and differ from page to page', () => {
    expect(pages).toHaveLength(12)
    expect(new Set(pages.map((p) => ('title' in p ? p.title : ''))).size).toBe(12)
    expect(new Set(pages.map((p) => p.description)).size).toBe(12)
    for (const page of pages) expect(page.description.length).toBeGreaterThan(70)
  })
})

describe('all content', () => {
  it('has no placeholder text', () => {
    const texts = allContent.flatMap(strings)
    expect(texts).toContain(contactPage.title)
    for (const text of texts) {
      // The company's sample e-mail address is marked in app/site.ts and refused by the go-live check.
      expect(text.replaceAll(site.email, ''), text).not.toMatch(
        /lorem|ipsum|\bTODO\b|\bTBD\b|placeholder|example\.com/i,
      )
      expect(text.trim(), 'empty string').not.toBe('')
    }
  })

  const dir = join(process.cwd(), 'app/content')
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'))

  it('reads the company identity from the site configuration instead of repeating it', () => {
    expect(files).toContain('service-pages/devops.ts')
    for (const file of files) {
      const source = readFileSync(join(dir, file), 'utf8')
      for (const identity of [site.name, site.product.name, site.email, site.phone, site.location.display]) {
        expect(source, `${file} repeats "${identity}"`).not.toContain(identity)
      }
    }
  })

  it('names its icons and imports none (components/Icon.tsx draws them)', () => {
    for (const file of files) expect(readFileSync(join(dir, file), 'utf8'), file).not.toContain('lucide-react')
    for (const card of [...services, ...serviceDetails.flatMap((d) => d.capabilities.cards), ...values, ...useCases])
      expect(card.icon, card.title).toMatch(/^[a-z]+(-[a-z]+)*$/)
  })

  it('uses illustrations that ship with the site and load nothing from elsewhere', () => {
    const images: Illustration[] = [...services.map((s) => s.image), avatarImage]
    expect(new Set(images.map((i) => i.src)).size).toBe(images.length)
    for (const image of images) {
      const file = join(process.cwd(), 'public', image.src)
      expect(existsSync(file), image.src).toBe(true)
      const svg = readFileSync(file, 'utf8')
      expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/)
      expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', ''), image.src).not.toMatch(/https?:|url\((?!#)/)
      expect(svg, image.src).not.toMatch(/style=|<style|<script/)
      expect(image.alt.length, image.src).toBeGreaterThan(20)
    }
  })
})

const british = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

describe('longDate', () => {
  it('writes a date as British English does, the way Intl would', () => {
    for (const iso of ['2026-11-23', '2026-01-01', '2025-02-28', '2024-02-29', '2027-12-31', '2026-07-09']) {
      expect(longDate(iso)).toBe(british.format(new Date(`${iso}T00:00:00Z`)))
    }
    expect(longDate('2026-11-03')).toBe('3 November 2026')
  })

  it('writes every legal page date', () => {
    for (const page of [privacyPage, termsPage]) {
      expect(longDate(page.updated)).toBe(british.format(new Date(page.updated)))
    }
  })

  it('refuses what is not a calendar date, instead of printing nonsense', () => {
    for (const bad of ['', '23/11/2026', '2026-13-01', '2026-00-10', '2026-11-32', '2026-11-00', '2026-11-23T10:00']) {
      expect(() => longDate(bad)).toThrow(/Not a calendar date/)
    }
  })
})
