import { callToAction, contactLink, features, h, img, link, type PageDocument, p } from './document'
import { labels } from './labels'
import { services } from './services'
import { servicesPage } from './services-page'

export function servicesDocument(): PageDocument {
  const { cta } = servicesPage
  return {
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
