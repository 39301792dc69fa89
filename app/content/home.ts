import { site } from '~/site'
import type { InfoCard } from './types'

export const homePage = {
  hero: {
    eyebrow: `Consultancy · ${site.location.locality}, ${site.location.country}`,
    words: ['Innovate', 'Automate', 'Transform'],
    tagline: 'AI-driven automation that lets your business run smarter, faster and with fewer manual steps.',
    blurb: `${site.name} designs, builds and runs the systems behind modern businesses: cloud platforms and delivery pipelines, automation for operations and back offices, AI products and fast, AI-ready websites.`,
    primary: 'Explore Our Services',
    secondary: 'See Our Products',
  },
  services: {
    eyebrow: 'What we do',
    title: 'Core services',
    intro: 'Three practices that share one engineering team, so platform, automation and AI work fit together.',
    /** Before a link to the fourth service, which the home page does not show as a card. */
    more: 'We also design and build fast, AI-ready websites.',
  },
  process: {
    eyebrow: 'How we work',
    title: 'From first call to a system you own',
    steps: [
      {
        title: 'Discover',
        description: 'We learn how the work happens today and agree what success looks like, in numbers where we can.',
        icon: 'compass',
        colour: 'cyan',
      },
      {
        title: 'Design',
        description: 'A short written proposal: the architecture, the first milestone, the cost and the risks.',
        icon: 'pencil-ruler',
        colour: 'violet',
      },
      {
        title: 'Build',
        description: 'Small increments you can see and test, with code and infrastructure in your own repositories.',
        icon: 'hammer',
        colour: 'emerald',
      },
      {
        title: 'Run & hand over',
        description: 'We operate it with you until your team is confident, then hand over runbooks and documentation.',
        icon: 'shield-check',
        colour: 'amber',
      },
    ] satisfies InfoCard[],
  },
  voice: {
    button: `Discover ${site.product.name}`,
  },
  cta: {
    title: 'Tell us what slows your team down',
    text: 'A release process, a manual report, a website that does not convert, an AI idea: describe it in a few lines and an engineer will reply.',
    label: 'Get In Touch',
  },
} as const
