import { createFileRoute } from '@tanstack/react-router'
import { EarlyAccessSignup } from '~/components/early-access/EarlyAccessSignup'
import { Icon } from '~/components/Icon'
import { AvatarVisual } from '~/components/sections/AvatarVisual'
import { CallToAction } from '~/components/sections/CallToAction'
import { CardGrid } from '~/components/sections/CardGrid'
import { FeatureMatrix } from '~/components/sections/FeatureMatrix'
import { PageHero } from '~/components/sections/PageHero'
import { Section } from '~/components/sections/Section'
import { buttonStyles } from '~/components/sections/styles'
import { loadEarlyAccessPanel } from '~/contact/early-access.functions'
import { type EarlyAccessFormResult, isEarlyAccessFormResult } from '~/contact/early-access-result'
import { avatarImage, featureGroups, productsPage, useCases, voiceAssistant } from '~/content/product'
import { productsHead } from '~/lib/structured-data'

export const Route = createFileRoute('/products')({
  // A signup without JavaScript comes back here with one of four fixed words (never the address).
  validateSearch: (search: Record<string, unknown>): { 'early-access'?: EarlyAccessFormResult } =>
    isEarlyAccessFormResult(search['early-access']) ? { 'early-access': search['early-access'] } : {},
  loader: () => loadEarlyAccessPanel(),
  head: () => productsHead(),
  component: ProductsPage,
})

const LIVE_DEMO_NOTE_ID = 'live-demo-note'

function ProductsPage() {
  const { banner, features, future } = productsPage
  const panel = Route.useLoaderData()
  const result = Route.useSearch()['early-access']
  return (
    <>
      <div className="container-page pt-8">
        <div className="flex flex-col items-start gap-3 rounded-2xl border border-amber-300/30 bg-amber-300/[0.07] px-5 py-4 sm:flex-row sm:items-center sm:gap-4">
          <p className="inline-flex shrink-0 items-center gap-2 rounded-full bg-amber-300 px-3 py-1 text-sm font-bold text-ink-950">
            <Icon name="rocket" className="size-4" />
            {banner.label}
          </p>
          <p className="text-fg/90">{banner.text}</p>
        </div>
      </div>

      <PageHero
        eyebrow={voiceAssistant.eyebrow}
        title={voiceAssistant.headline}
        lead={
          <>
            <p>{voiceAssistant.summary}</p>
            <p className="text-gradient mt-4 font-bold">{voiceAssistant.tagline}</p>
          </>
        }
        aside={<AvatarVisual image={avatarImage} priority />}
      >
        <a href={`#${features.id}`} className={buttonStyles.primary}>
          {productsPage.hero.explore}
          <Icon name="arrow-down" className="size-5 shrink-0" />
        </a>
        <button
          type="button"
          disabled
          aria-describedby={LIVE_DEMO_NOTE_ID}
          className="inline-flex min-h-12 cursor-not-allowed items-center justify-center gap-2 rounded-full border border-dashed border-line-strong px-6 font-semibold text-muted"
        >
          <Icon name="circle-play" className="size-5 shrink-0" />
          {productsPage.hero.liveDemo}
        </button>
        <p id={LIVE_DEMO_NOTE_ID} className="w-full text-sm text-subtle">
          {productsPage.liveDemoNote}
        </p>
      </PageHero>

      <Section id={features.id} eyebrow={features.eyebrow} title={features.title} intro={features.intro}>
        <FeatureMatrix groups={featureGroups} />
      </Section>

      <Section
        eyebrow={productsPage.useCases.eyebrow}
        title={productsPage.useCases.title}
        intro={productsPage.useCases.intro}
      >
        <CardGrid items={useCases} columns={3} />
      </Section>

      <CallToAction title={future.title} text={future.text}>
        <EarlyAccessSignup
          label={future.label}
          on={panel.on}
          turnstileSiteKey={panel.turnstileSiteKey}
          result={result}
        />
      </CallToAction>
    </>
  )
}
