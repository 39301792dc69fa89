import { site } from '~/site'
import { h, type Inline, link, type PageDocument, p, ul } from './document'
import { labels } from './labels'
import type { LegalPage } from './legal'

export { privacyPage } from './privacy'
export { termsPage } from './terms'

import { longDate } from './long-date'
import { slugify } from './slugify'

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

export function legalDocument(page: LegalPage): PageDocument {
  const sections = page.sections.map((s) => ({ ...s, id: slugify(s.title) }))
  return {
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
