import { Link } from '@tanstack/react-router'
import { Icon } from '~/components/Icon'
import { homePage } from '~/content/home'
import { avatarImage, voiceAssistant } from '~/content/voice-assistant'
import { AvatarVisual } from './AvatarVisual'
import { FeatureList } from './FeatureList'
import { buttonStyles, eyebrowStyle } from './styles'

/** The home page's promotion of the voice assistant. */
export function VoicePromo() {
  return (
    <section aria-labelledby="voice-promo-title" className="container-page pt-section">
      <div className="glass relative grid items-center gap-10 overflow-hidden p-6 sm:p-10 lg:grid-cols-[1.2fr_1fr] lg:p-14">
        <div aria-hidden="true" className="absolute -top-32 -left-24 size-96 rounded-full bg-brand-400/10 blur-3xl" />
        <div className="relative">
          <p className={eyebrowStyle}>{voiceAssistant.eyebrow}</p>
          <h2 id="voice-promo-title" className="mt-3 text-h2 font-bold tracking-tight text-fg">
            {voiceAssistant.promoTitle}
          </h2>
          <p className="text-gradient mt-3 text-[clamp(1.5rem,1.2rem+1vw,2rem)] leading-tight font-bold">
            {voiceAssistant.tagline}
          </p>
          <p className="mt-5 text-lead text-muted">{voiceAssistant.summary}</p>
          <FeatureList items={voiceAssistant.highlights} className="mt-6" />
          <Link to="/coming-soon" className={`mt-10 ${buttonStyles.primary}`}>
            {homePage.voice.button}
            <Icon name="arrow-right" className="size-5 shrink-0" />
          </Link>
        </div>
        <AvatarVisual image={avatarImage} />
      </div>
    </section>
  )
}
