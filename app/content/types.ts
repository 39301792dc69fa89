import type { Subject } from '~/content/subjects'
import type { ServicePath } from './pages'

/** Every icon the site draws, by lucide name: one symbol each in document/icons.svg (`npm run icons`). */
export const ICON_NAMES = [
  'activity',
  'arrow-down',
  'arrow-left',
  'arrow-right',
  'blocks',
  'boxes',
  'brain-circuit',
  'check',
  'chevron-right',
  'circle-alert',
  'circle-check',
  'circle-play',
  'cloud',
  'cog',
  'compass',
  'container',
  'external-link',
  'factory',
  'file-code',
  'file-text',
  'gauge',
  'globe',
  'hammer',
  'heart-pulse',
  'lightbulb',
  'loader-circle',
  'mail',
  'map-pin',
  'menu',
  'mic',
  'mouse-pointer-click',
  'network',
  'pencil-ruler',
  'phone',
  'puzzle',
  'rocket',
  'rotate-cw',
  'search',
  'send',
  'server',
  'shield-check',
  'shopping-cart',
  'sparkles',
  'trending-up',
  'user-round',
  'workflow',
  'x',
  'zap',
] as const

export type IconName = (typeof ICON_NAMES)[number]

export const ICON_ID_PREFIX = 'icon-'

/** Each maps to a fixed set of classes in `~/components/sections/accent`. */
export type Accent = 'cyan' | 'violet' | 'emerald' | 'amber' | 'rose'

/** In `public/images/`. */
export interface Illustration {
  src: string
  alt: string
  width: number
  height: number
}

/** Spec §3: service card. */
export interface ServiceCard {
  slug: 'devops' | 'ai-solutions' | 'automation' | 'ai-web-development'
  title: string
  /** For the home page's cards. */
  summary: string
  /** For the services page. */
  description: string
  icon: IconName
  image: Illustration
  /** Exactly four. */
  features: readonly string[]
  colour: Accent
  path: ServicePath
}

/** A capability, a step of the process, or the spec's use case and value (§3), which have no badge. */
export interface InfoCard {
  title: string
  description: string
  icon: IconName
  colour: Accent
  /** "Launching soon". */
  badge?: string
}

export interface ContactCta {
  title: string
  text: string
  label: string
  subject?: Subject
}

export interface ServiceDetail {
  service: ServiceCard
  lead: string
  approach: {
    title: string
    paragraphs: readonly string[]
    highlights: readonly string[]
  }
  capabilities: {
    title: string
    intro: string
    cards: readonly InfoCard[]
  }
  cta: ContactCta
}

export type FeatureBadge = 'Coming Soon' | 'Enterprise'

export interface FeatureItem {
  label: string
  badge?: FeatureBadge
}

/** Spec §3: feature group. */
export interface FeatureGroup {
  category: string
  description: string
  items: readonly FeatureItem[]
}

/** Spec §3: team member. */
export interface TeamMember {
  name: string
  role: string
  bio: string
}

/** For the legal pages. */
export interface ProseSection {
  title: string
  paragraphs: readonly string[]
  list?: readonly string[]
}
