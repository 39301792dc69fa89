import type { Subject } from '~/content/subjects'
import type { ServicePath } from './pages'

/**
 * Every icon the site draws, by its lucide name: those content names (content imports no icon) and
 * the interface's own (arrows, the menu, the form's states). Each is a symbol in one sprite file
 * (document/icons.svg, written by `npm run icons`), and components/Icon.tsx draws a name from it.
 */
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

/** An icon's symbol id in the sprite and in a page: `icon-<name>`. */
export const ICON_ID_PREFIX = 'icon-'

/** Accent colours from the theme; each maps to a fixed set of classes in `~/components/sections/accent`. */
export type Accent = 'cyan' | 'violet' | 'emerald' | 'amber' | 'rose'

/** An illustration shipped in `public/images/`. */
export interface Illustration {
  src: string
  /** What the illustration shows, for people who cannot see it. */
  alt: string
  width: number
  height: number
}

/** One of the four services (spec §3: service card). */
export interface ServiceCard {
  slug: 'devops' | 'ai-solutions' | 'automation' | 'ai-web-development'
  title: string
  /** One sentence for cards on the home page. */
  summary: string
  /** A paragraph for the services page. */
  description: string
  icon: IconName
  image: Illustration
  /** Exactly four feature bullets. */
  features: readonly string[]
  colour: Accent
  path: ServicePath
}

/**
 * A card on a page: a capability, a step of the process, and the spec's use case and value
 * (§3: title, description, icon, colour), which are this shape without a badge.
 */
export interface InfoCard {
  title: string
  description: string
  icon: IconName
  colour: Accent
  /** A short visible label such as "Launching soon". */
  badge?: string
}

/** A call to action that opens the contact page, with a subject preselected when one fits. */
export interface ContactCta {
  title: string
  text: string
  label: string
  subject?: Subject
}

/** Content of one service detail page. */
export interface ServiceDetail {
  service: ServiceCard
  /** Lead paragraph under the page title. */
  lead: string
  approach: {
    title: string
    paragraphs: readonly string[]
    /** Short principles shown beside the paragraphs. */
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

/** A group of the product's features (spec §3: feature group). */
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

/** A titled block of prose, for the legal pages. */
export interface ProseSection {
  title: string
  paragraphs: readonly string[]
  list?: readonly string[]
}
