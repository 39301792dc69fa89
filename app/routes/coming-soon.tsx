import { createFileRoute, Link } from '@tanstack/react-router'
import { Icon } from '~/components/Icon'
import { AvatarVisual } from '~/components/sections/AvatarVisual'
import { PAGE_TITLE_ID } from '~/components/sections/PageHero'
import { buttonStyles, eyebrowStyle } from '~/components/sections/styles'
import { comingSoonPage } from '~/content/coming-soon'
import { metaFor } from '~/content/pages'
import { avatarImage } from '~/content/voice-assistant'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/coming-soon')({
  head: () => seo(metaFor('/coming-soon')),
  component: ComingSoonPage,
})

function ComingSoonPage() {
  return (
    <section aria-labelledby={PAGE_TITLE_ID} className="container-page pt-12 text-center sm:pt-16">
      <div className="mx-auto w-48 sm:w-60">
        <AvatarVisual image={avatarImage} priority />
      </div>
      <p className={`mt-8 ${eyebrowStyle}`}>{comingSoonPage.eyebrow}</p>
      <h1 id={PAGE_TITLE_ID} className="mt-4 text-h1 font-bold tracking-tight text-fg">
        {comingSoonPage.title}
      </h1>
      <p className="mx-auto mt-6 max-w-xl text-lead text-muted">{comingSoonPage.text}</p>
      <Link to="/" className={`mt-10 ${buttonStyles.primary}`}>
        <Icon name="arrow-left" className="size-5 shrink-0" />
        {comingSoonPage.back}
      </Link>
    </section>
  )
}
