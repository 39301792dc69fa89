import { callToAction, cards, contactLink, em, features, h, img, link, type PageDocument, p, section } from './document'
import { avatarImage, featureGroups, productsPage, useCases } from './product'
import { voiceAssistant } from './voice-assistant'

export function productsDocument(): PageDocument {
  const { banner, hero, features: featureSection, useCases: useCaseSection, future } = productsPage
  return {
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
