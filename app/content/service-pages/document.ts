import { callToAction, cards, contactLink, features, h, img, link, type PageDocument, p, section } from '../document'
import { labels } from '../labels'
import { pageAt } from '../pages'
import type { ServiceDetail } from '../types'

export { aiSolutionsDetail, automationDetail, devopsDetail, webDevelopmentDetail } from './index'

/** A service page's words, from its module in this folder: the four pages share one layout. */
export function serviceDocument(detail: ServiceDetail): PageDocument {
  const { service, approach, capabilities, cta } = detail
  return {
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
