import { aboutPage, team, values } from '~/content/about'
import { comingSoonPage } from '~/content/coming-soon'
import { contactPage, FORM_CONTAINER_ID, socialLinks } from '~/content/contact'
import { homePage } from '~/content/home'
import { labels } from '~/content/labels'
import { type LegalPage, privacyPage, termsPage } from '~/content/legal'
import { type PagePath, pageAt, type ServicePath } from '~/content/pages'
import { avatarImage, featureGroups, productsPage, useCases, voiceAssistant } from '~/content/product'
import { aiSolutionsDetail, automationDetail, devopsDetail, webDevelopmentDetail } from '~/content/service-pages'
import { coreServices, services, webDevelopment } from '~/content/services'
import { servicesPage } from '~/content/services-page'
import type { ContactCta, FeatureItem, Illustration, InfoCard, ServiceDetail } from '~/content/types'
import { longDate } from '~/lib/long-date'
import { slugify } from '~/lib/slugify'
import { site } from '~/site'

/** Each public page's words (<main>'s) for its twin, llms-full.txt and card; a test compares each with the page. */

export interface Link {
  text: string
  href: string
}

export type Inline = string | Link

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: Inline }
  | { kind: 'paragraph'; text: readonly Inline[]; emphasis?: boolean }
  | { kind: 'list'; ordered?: boolean; items: readonly (readonly Inline[])[] }
  | { kind: 'image'; image: Illustration }

export interface PageDocument {
  path: PagePath
  heading: string
  cardLine: string
  blocks: readonly Block[]
}

const h = (level: 1 | 2 | 3, text: Inline): Block => ({ kind: 'heading', level, text })
const p = (...text: Inline[]): Block => ({ kind: 'paragraph', text })
const em = (text: string): Block => ({ kind: 'paragraph', text: [text], emphasis: true })
const ul = (items: readonly (string | readonly Inline[])[]): Block => ({
  kind: 'list',
  items: items.map((item) => (typeof item === 'string' ? [item] : item)),
})
const img = (image: Illustration): Block => ({ kind: 'image', image })
const link = (text: string, href: string): Link => ({ text, href })

function section(title: string, body: readonly Block[], options: { eyebrow?: string; intro?: string } = {}): Block[] {
  return [
    ...(options.eyebrow ? [p(options.eyebrow)] : []),
    h(2, title),
    ...(options.intro ? [p(options.intro)] : []),
    ...body,
  ]
}

function cards(items: readonly InfoCard[]): Block[] {
  return items.flatMap((card) => [h(3, card.title), ...(card.badge ? [em(card.badge)] : []), p(card.description)])
}

function features(items: readonly (string | FeatureItem)[]): Block {
  return ul(
    items.map((entry) => {
      const item = typeof entry === 'string' ? { label: entry } : entry
      return item.badge ? `${item.label} (${item.badge})` : item.label
    }),
  )
}

function contactLink(label: string, subject?: ContactCta['subject']): Block {
  return p(link(label, subject ? `/contact?subject=${subject}` : '/contact'))
}

function callToAction(cta: { title: string; text: string }, action: Block): Block[] {
  return [h(2, cta.title), p(cta.text), action]
}

function home(): PageDocument {
  const { hero, services: servicesSection, process, cta, voice } = homePage
  return {
    path: '/',
    heading: hero.words.join(' '),
    cardLine: hero.tagline,
    blocks: [
      p(hero.eyebrow),
      h(1, hero.words.join(' ')),
      p(hero.tagline),
      p(hero.blurb),
      p(link(hero.primary, '/services'), ' · ', link(hero.secondary, '/products')),
      ...section(
        servicesSection.title,
        [
          ...coreServices.flatMap((service) => [h(3, link(service.title, service.path)), p(service.summary)]),
          p(servicesSection.more, ' ', link(`See ${webDevelopment.title}`, webDevelopment.path)),
        ],
        { eyebrow: servicesSection.eyebrow, intro: servicesSection.intro },
      ),
      // VoicePromo
      p(voiceAssistant.eyebrow),
      h(2, voiceAssistant.promoTitle),
      p(voiceAssistant.tagline),
      p(voiceAssistant.summary),
      features(voiceAssistant.highlights),
      p(link(voice.button, '/coming-soon')),
      img(avatarImage),
      ...section(process.title, cards(process.steps), { eyebrow: process.eyebrow }),
      ...callToAction(cta, contactLink(cta.label)),
    ],
  }
}

function servicesOverview(): PageDocument {
  const { cta } = servicesPage
  return {
    path: '/services',
    heading: servicesPage.title,
    cardLine: servicesPage.title,
    blocks: [
      p(servicesPage.eyebrow),
      h(1, servicesPage.title),
      p(servicesPage.lead),
      // ServiceBlock: the illustration, then the words.
      ...services.flatMap((service) => [
        img(service.image),
        h(2, service.title),
        p(service.description),
        features(service.features),
        p(link(`${labels.learnMore} ${labels.learnMoreAbout} ${service.title}`, service.path)),
      ]),
      ...callToAction(cta, contactLink(cta.label)),
    ],
  }
}

function serviceDetail(detail: ServiceDetail): PageDocument {
  const { service, approach, capabilities, cta } = detail
  return {
    path: service.path,
    heading: service.title,
    cardLine: detail.lead,
    blocks: [
      p(link(pageAt('/services').title, '/services'), ' › ', service.title),
      h(1, service.title),
      p(detail.lead),
      features(service.features),
      img(service.image),
      ...section(approach.title, [
        ...approach.paragraphs.map((text) => p(text)),
        p(labels.howWeWork),
        features(approach.highlights),
      ]),
      ...section(capabilities.title, cards(capabilities.cards), { intro: capabilities.intro }),
      ...callToAction(cta, contactLink(cta.label, cta.subject)),
    ],
  }
}

function products(): PageDocument {
  const { banner, hero, features: featureSection, useCases: useCaseSection, future } = productsPage
  return {
    path: '/products',
    heading: voiceAssistant.headline,
    cardLine: voiceAssistant.summary,
    blocks: [
      em(banner.label),
      p(banner.text),
      p(voiceAssistant.eyebrow),
      h(1, voiceAssistant.headline),
      p(voiceAssistant.summary),
      p(voiceAssistant.tagline),
      p(link(hero.explore, `#${featureSection.id}`)),
      p(hero.liveDemo),
      p(productsPage.liveDemoNote),
      img(avatarImage),
      ...section(
        featureSection.title,
        featureGroups.flatMap((group) => [h(3, group.category), p(group.description), features(group.items)]),
        { eyebrow: featureSection.eyebrow, intro: featureSection.intro },
      ),
      ...section(useCaseSection.title, cards(useCases), {
        eyebrow: useCaseSection.eyebrow,
        intro: useCaseSection.intro,
      }),
      ...callToAction(future, contactLink(future.label, 'voice-ai')),
    ],
  }
}

function about(): PageDocument {
  const { mission, story, cta } = aboutPage
  return {
    path: '/about',
    heading: aboutPage.title,
    cardLine: aboutPage.title,
    blocks: [
      p(aboutPage.eyebrow),
      h(1, aboutPage.title),
      p(aboutPage.lead),
      h(2, mission.title),
      p(mission.text),
      h(2, story.title),
      ...story.paragraphs.map((text) => p(text)),
      { kind: 'list', ordered: true, items: story.milestones.map((m) => [`${m.title}: ${m.text}`]) },
      ...section(
        aboutPage.team.title,
        team.flatMap((member) => [h(3, member.name), p(member.role), p(member.bio)]),
        { eyebrow: aboutPage.team.eyebrow, intro: aboutPage.team.intro },
      ),
      ...section(aboutPage.values.title, cards(values), {
        eyebrow: aboutPage.values.eyebrow,
        intro: aboutPage.values.intro,
      }),
      ...callToAction(cta, contactLink(cta.label)),
    ],
  }
}

function contact(): PageDocument {
  const { info, follow, promo } = contactPage
  return {
    path: '/contact',
    heading: contactPage.title,
    cardLine: contactPage.intro,
    blocks: [
      h(1, contactPage.title),
      p(contactPage.intro),
      // The form itself (fields and button) cannot be written in Markdown: its heading links to it.
      h(2, link(contactPage.form.title, `#${FORM_CONTAINER_ID}`)),
      h(2, info.title),
      h(3, info.email.label),
      p(link(site.email, `mailto:${site.email}`)),
      p(info.email.hint),
      h(3, info.phone.label),
      p(link(site.phone, `tel:${site.phoneE164}`)),
      p(info.phone.hint),
      h(3, info.location.label),
      p(site.location.display),
      p(info.location.hint),
      h(2, follow.title),
      ul(socialLinks.map((social) => [link(`${site.name} on ${social.label}`, social.href)])),
      h(2, promo.title),
      p(promo.text),
      p(link(promo.label, '/coming-soon')),
    ],
  }
}

function comingSoon(): PageDocument {
  return {
    path: '/coming-soon',
    heading: comingSoonPage.title,
    cardLine: comingSoonPage.text,
    blocks: [
      img(avatarImage),
      p(comingSoonPage.eyebrow),
      h(1, comingSoonPage.title),
      p(comingSoonPage.text),
      p(link(comingSoonPage.back, '/')),
    ],
  }
}

/** As the legal pages show it: the company's address as a mail link. */
function withEmailLinks(text: string): Inline[] {
  return text
    .split(site.email)
    .flatMap((part, index) => (index === 0 ? [part] : [link(site.email, `mailto:${site.email}`), part]))
    .filter((part) => part !== '')
}

function firstSentence(text: string): string {
  return /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text
}

function legal(path: '/privacy' | '/terms', page: LegalPage): PageDocument {
  const sections = page.sections.map((s) => ({ ...s, id: slugify(s.title) }))
  return {
    path,
    heading: page.title,
    cardLine: firstSentence(page.intro),
    blocks: [
      h(1, page.title),
      p(`${labels.lastUpdated} ${longDate(page.updated)}`),
      p(page.intro),
      ...sections.flatMap((s) => [
        h(2, s.title),
        ...s.paragraphs.map((text) => p(...withEmailLinks(text))),
        ...(s.list ? [ul(s.list)] : []),
      ]),
      p(labels.onThisPage),
      ul(sections.map((s) => [link(s.title, `#${s.id}`)])),
    ],
  }
}

const SERVICE_DETAILS: Record<ServicePath, ServiceDetail> = {
  '/services/devops': devopsDetail,
  '/services/ai-solutions': aiSolutionsDetail,
  '/services/automation': automationDetail,
  '/services/ai-web-development': webDevelopmentDetail,
}

/** A Record over the page list: a new page without one fails the type check. */
const DOCUMENTS: Record<PagePath, () => PageDocument> = {
  '/': home,
  '/services': servicesOverview,
  '/services/devops': () => serviceDetail(SERVICE_DETAILS['/services/devops']),
  '/services/ai-solutions': () => serviceDetail(SERVICE_DETAILS['/services/ai-solutions']),
  '/services/automation': () => serviceDetail(SERVICE_DETAILS['/services/automation']),
  '/services/ai-web-development': () => serviceDetail(SERVICE_DETAILS['/services/ai-web-development']),
  '/products': products,
  '/about': about,
  '/contact': contact,
  '/coming-soon': comingSoon,
  '/privacy': () => legal('/privacy', privacyPage),
  '/terms': () => legal('/terms', termsPage),
}

export function pageDocument(path: PagePath): PageDocument {
  return DOCUMENTS[path]()
}
