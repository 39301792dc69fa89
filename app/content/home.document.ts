import { callToAction, cards, contactLink, features, h, img, link, type PageDocument, p, section } from './document'
import { homePage } from './home'
import { coreServices, webDevelopment } from './services'
import { avatarImage, voiceAssistant } from './voice-assistant'

export function homeDocument(): PageDocument {
  const { hero, services: servicesSection, process, cta, voice } = homePage
  return {
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
