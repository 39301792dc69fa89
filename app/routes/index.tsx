import { createFileRoute, Link } from '@tanstack/react-router'
import { Icon } from '~/components/Icon'
import { CallToAction } from '~/components/sections/CallToAction'
import { CardGrid } from '~/components/sections/CardGrid'
import { ContactButton } from '~/components/sections/ContactButton'
import { PAGE_TITLE_ID } from '~/components/sections/PageHero'
import { Section } from '~/components/sections/Section'
import { ServiceLinkCard } from '~/components/sections/ServiceLinkCard'
import { buttonStyles } from '~/components/sections/styles'
import { VoicePromo } from '~/components/sections/VoicePromo'
import { homePage } from '~/content/home'
import { coreServices, webDevelopment } from '~/content/services'
import { homeHead } from '~/lib/structured-data'

export const Route = createFileRoute('/')({
  head: () => homeHead(),
  component: Home,
})

function Home() {
  const { hero, services, process, cta } = homePage
  return (
    <>
      <section aria-labelledby={PAGE_TITLE_ID} className="container-page pt-16 text-center sm:pt-24 lg:pt-28">
        <p className="inline-flex items-center gap-2 rounded-full border border-line bg-ink-800/60 px-4 py-1.5 text-sm font-medium text-muted">
          <span
            aria-hidden="true"
            className="size-2 rounded-full bg-brand-400 shadow-[0_0_12px_2px_rgb(56_213_240/0.6)]"
          />
          {hero.eyebrow}
        </p>
        <h1
          id={PAGE_TITLE_ID}
          className="mx-auto mt-8 max-w-5xl text-[clamp(2.75rem,1.5rem+5.2vw,5.75rem)] leading-[1.02] font-extrabold tracking-tight"
        >
          {hero.words.map((word, index) => (
            <span key={word} className={index === hero.words.length - 1 ? 'text-gradient' : 'text-fg'}>
              {word}
              {index < hero.words.length - 1 ? ' ' : null}
            </span>
          ))}
        </h1>
        <p className="mx-auto mt-8 max-w-3xl text-[clamp(1.25rem,1.1rem+0.6vw,1.5rem)] leading-snug font-medium text-fg">
          {hero.tagline}
        </p>
        <p className="mx-auto mt-5 max-w-2xl text-lead text-muted">{hero.blurb}</p>
        <div className="mt-10 flex flex-wrap justify-center gap-4">
          <Link to="/services" className={buttonStyles.primary}>
            {hero.primary}
            <Icon name="arrow-right" className="size-5 shrink-0" />
          </Link>
          <Link to="/products" className={buttonStyles.secondary}>
            {hero.secondary}
          </Link>
        </div>
      </section>

      <Section eyebrow={services.eyebrow} title={services.title} intro={services.intro}>
        <ul className="grid gap-5 sm:gap-6 lg:grid-cols-3">
          {coreServices.map((service) => (
            <li key={service.slug}>
              <ServiceLinkCard service={service} />
            </li>
          ))}
        </ul>
        <p className="mt-8 text-muted">
          {services.more}{' '}
          <Link to={webDevelopment.path} className="font-semibold text-brand-300 underline-offset-4 hover:underline">
            See {webDevelopment.title}
          </Link>
        </p>
      </Section>

      <VoicePromo />

      <Section eyebrow={process.eyebrow} title={process.title}>
        <CardGrid items={process.steps} columns={4} />
      </Section>

      <CallToAction title={cta.title} text={cta.text}>
        <ContactButton>{cta.label}</ContactButton>
      </CallToAction>
    </>
  )
}
