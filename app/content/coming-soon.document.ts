import { comingSoonPage } from './coming-soon'
import { h, img, link, type PageDocument, p } from './document'
import { avatarImage } from './voice-assistant'

export function comingSoonDocument(): PageDocument {
  return {
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
