import { createFileRoute } from '@tanstack/react-router'
import { CallToAction } from '~/components/sections/CallToAction'
import { CardGrid } from '~/components/sections/CardGrid'
import { ContactButton } from '~/components/sections/ContactButton'
import { PageHero } from '~/components/sections/PageHero'
import { Section } from '~/components/sections/Section'
import { eyebrowStyle } from '~/components/sections/styles'
import { TeamCard } from '~/components/sections/TeamCard'
import { aboutPage, team, values } from '~/content/about'
import { metaFor } from '~/content/pages'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/about')({
  head: () => seo(metaFor('/about')),
  component: AboutPage,
})

function AboutPage() {
  const { mission, story, cta } = aboutPage
  return (
    <>
      <PageHero eyebrow={aboutPage.eyebrow} title={aboutPage.title} lead={<p>{aboutPage.lead}</p>} />

      <div className="container-page grid gap-6 pt-section lg:grid-cols-[1fr_1.4fr] lg:gap-10">
        <section aria-labelledby="mission-title" className="glass relative h-fit overflow-hidden p-6 sm:p-10">
          <div aria-hidden="true" className="absolute -top-16 -left-16 size-56 rounded-full bg-brand-400/15 blur-3xl" />
          <h2 id="mission-title" className={`relative ${eyebrowStyle}`}>
            {mission.title}
          </h2>
          <p className="relative mt-5 text-[clamp(1.25rem,1.1rem+0.6vw,1.5rem)] leading-snug font-semibold text-fg">
            {mission.text}
          </p>
        </section>
        <section aria-labelledby="story-title" className="lg:pt-4">
          <h2 id="story-title" className="text-h2 font-bold tracking-tight text-fg">
            {story.title}
          </h2>
          <div className="mt-5 space-y-5 text-lead text-muted">
            {story.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
        </section>
      </div>

      <div className="container-page mt-12">
        <ol aria-label="How we grew" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {story.milestones.map((milestone, index) => (
            <li key={milestone.title} className="glass relative p-6">
              <span aria-hidden="true" className="text-sm font-bold text-brand-300">
                {String(index + 1).padStart(2, '0')}
              </span>
              <p className="mt-2 text-h3 font-semibold text-fg">{milestone.title}</p>
              <p className="mt-1 text-muted">{milestone.text}</p>
            </li>
          ))}
        </ol>
      </div>

      <Section eyebrow={aboutPage.team.eyebrow} title={aboutPage.team.title} intro={aboutPage.team.intro}>
        <ul className="grid gap-5 sm:gap-6 lg:grid-cols-3">
          {team.map((member) => (
            <li key={member.name}>
              <TeamCard member={member} />
            </li>
          ))}
        </ul>
      </Section>

      <Section eyebrow={aboutPage.values.eyebrow} title={aboutPage.values.title} intro={aboutPage.values.intro}>
        <CardGrid items={values} columns={3} />
      </Section>

      <CallToAction title={cta.title} text={cta.text}>
        <ContactButton>{cta.label}</ContactButton>
      </CallToAction>
    </>
  )
}
