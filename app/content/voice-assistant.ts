import { site } from '~/site'
import type { Illustration } from './types'

/** The voice assistant's avatar illustration. */
export const avatarImage: Illustration = {
  src: '/images/voice-assistant-avatar.svg',
  alt: `The ${site.product.name} avatar: a friendly animated assistant with a sound wave, speaking from the corner of a web page.`,
  width: 480,
  height: 480,
}

/** The voice assistant, as the home page and the products page present it. */
export const voiceAssistant = {
  name: site.product.name,
  eyebrow: 'Our flagship product',
  /** The home page's heading for it. */
  promoTitle: `Meet ${site.product.name}`,
  headline: `${site.product.name}: a voice assistant for your website`,
  tagline: 'Integration in under 30 minutes.',
  summary:
    'A voice assistant with an animated avatar that talks with your visitors, answers from your own content and books appointments, and embeds into any website with a single script tag.',
  highlights: ['Animated, speaking avatars', 'Embeds into any website', 'Answers from your own content'],
} as const
