import { site } from '~/site'
import type { FeatureGroup, InfoCard } from './types'

export { avatarImage, voiceAssistant } from './voice-assistant'

export const productsPage = {
  banner: {
    label: 'Launching Soon',
    text: `${site.product.name} is in its final stage of development. Ask for early access updates and we will tell you as soon as it opens.`,
  },
  hero: {
    explore: 'Explore Features',
    liveDemo: 'Live Demo (Coming Soon)',
  },
  liveDemoNote: 'The live demo opens at launch.',
  features: {
    id: 'features',
    eyebrow: 'Features',
    title: 'Everything your website assistant needs',
    intro:
      'The core plan covers what most websites need on day one. Pro and Enterprise add deeper automation, premium voices and avatars, and the tools to train and tune the assistant yourself.',
  },
  useCases: {
    eyebrow: 'Use cases',
    title: 'Where it helps',
    intro: 'Three places where a speaking assistant on a website saves time for visitors and for your team.',
  },
  future: {
    title: 'More products on the way',
    text: `${site.product.name} is the first of several AI products we are building at ${site.name}, including document automation and language tools from our symbolic AI research. Leave your details and we will keep you posted on launches and early access.`,
    label: 'Get Early Access Updates',
  },
} as const

/** The feature matrix: 6 core items and 9 Pro/Enterprise items. */
export const featureGroups: readonly FeatureGroup[] = [
  {
    category: 'Core Features',
    description: 'Included in every plan.',
    items: [
      { label: 'Animated avatar that speaks and lip-syncs its answers' },
      { label: 'Natural two-way voice conversation in the browser' },
      { label: 'Embeds into any website with one script tag' },
      { label: 'Answers from your own pages, FAQs and documents' },
      { label: 'Text chat for visitors who prefer to type' },
      { label: 'Colours, greeting and position to match your brand' },
    ],
  },
  {
    category: 'Pro/Enterprise Features',
    description: 'For teams that want the assistant to take action and to tune it themselves.',
    items: [
      { label: 'Form filling and appointment booking by voice' },
      { label: 'Premium cloud voice engine with natural-sounding voices' },
      { label: 'Premium avatars' },
      { label: 'Training dashboard to review answers and teach new ones' },
      { label: 'Intent and flow builder', badge: 'Coming Soon' },
      { label: 'Custom avatars designed for your brand', badge: 'Enterprise' },
      { label: 'Conversation transcripts and analytics' },
      { label: 'Hand-off to your CRM, e-mail or helpdesk' },
      { label: 'Priority support' },
    ],
  },
]

export const useCases: readonly InfoCard[] = [
  {
    title: 'E-commerce Support',
    description:
      'Answers questions about products, sizes, delivery and returns at any hour, helps shoppers find the right item and passes order problems to your support team.',
    icon: 'shopping-cart',
    colour: 'cyan',
  },
  {
    title: 'Virtual Receptionist for Websites',
    description:
      'Greets visitors, explains your services, opening hours and prices, takes messages and books meetings straight into your calendar.',
    icon: 'user-round',
    colour: 'violet',
  },
  {
    title: 'Healthcare Assistant',
    description:
      'Helps patients find the right department, check clinic timings and book or reschedule appointments, and hands anything clinical to your staff. It never gives medical advice.',
    icon: 'heart-pulse',
    colour: 'rose',
  },
]
