import { aboutPage, team, values } from './about'
import { callToAction, cards, contactLink, h, type PageDocument, p, section } from './document'

export function aboutDocument(): PageDocument {
  const { mission, story, cta } = aboutPage
  return {
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
