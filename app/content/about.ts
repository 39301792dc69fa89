import { sample, site } from '~/site'
import type { InfoCard, TeamMember } from './types'

export const aboutPage = {
  eyebrow: `About ${site.name}`,
  title: 'A small team that builds systems to run themselves',
  lead: `We are an engineering consultancy based in ${site.location.locality}, ${site.location.region}, working on DevOps and cloud platforms, automation, AI products and websites for businesses of every size.`,
  mission: {
    title: 'Our Mission',
    text: 'To make dependable automation and practical AI available to every business, not only the largest ones: systems that take repetitive work off people, run reliably without constant attention, and are built so that our clients understand and own them.',
  },
  story: {
    title: 'Our Story',
    paragraphs: [
      `${site.name} began in ${site.foundingYear} building websites for local businesses. Those projects taught us that a client rarely needs only a website: they need the systems behind it to work, and to keep working without someone watching them.`,
      'So we grew along with our clients’ needs. Our founders’ years of enterprise platform work became our DevOps and cloud practice; the scripts we wrote to spare ourselves repetitive work became an automation practice; and the questions clients kept asking about AI led us to build AI products of our own, beginning with a voice assistant for websites.',
      'We are still small on purpose. The people who scope your project are the people who build it, and we would rather do a few projects very well than many in a hurry.',
    ],
    milestones: [
      {
        title: 'Websites',
        text: `Where we started in ${site.foundingYear}: fast, accessible sites for local businesses.`,
      },
      { title: 'DevOps & Cloud', text: 'Platforms, pipelines and monitoring for enterprise teams.' },
      { title: 'Automation', text: 'Dashboards, infrastructure and business workflows on autopilot.' },
      { title: 'AI', text: `AI products, from ${site.product.name} to symbolic AI research.` },
    ],
  },
  team: {
    eyebrow: 'Leadership',
    title: 'Leadership Team',
    intro: 'Three people lead our work, and each of them is hands-on in client projects.',
  },
  values: {
    eyebrow: 'Our values',
    title: 'What We Stand For',
    intro: 'Three words sum up how we work, and they are the words on our front page.',
  },
  cta: {
    title: 'Let’s build something that lasts',
    text: 'Whether it is a platform, a product or a website, we would like to hear what you are working on.',
    label: 'Get In Touch',
  },
} as const

export const team: readonly TeamMember[] = [
  {
    name: sample('Ravi Teja Kotipalli'),
    role: 'Founder & CEO',
    bio: `Ravi founded ${site.name} in ${site.foundingYear} after more than a decade designing and running software for large enterprises. He leads client engagements and product direction, and still reviews the architecture of every project.`,
  },
  {
    name: sample('Lakshmi Prasanna Vadlamudi'),
    role: 'Head of DevOps & Cloud',
    bio: 'Lakshmi has spent over ten years building delivery platforms on Kubernetes and OpenShift for enterprise teams. She leads our DevOps practice and cares most about pipelines that make releases boring and monitoring that wakes the right person.',
  },
  {
    name: sample('Karthik Sai Achanta'),
    role: 'Head of AI & Automation',
    bio: `Karthik leads our AI and automation work, from document automation and industrial dashboards to the ${site.product.name} voice assistant. He also heads our research into symbolic AI based on Panini’s Sanskrit grammar.`,
  },
]

export const values: readonly InfoCard[] = [
  {
    title: 'Innovate',
    description:
      'We try new ideas on small, real problems first and keep what works. Curiosity is welcome; hype is not.',
    icon: 'lightbulb',
    colour: 'cyan',
  },
  {
    title: 'Automate',
    description:
      'If a task is repeated, it should be reliable and it should be automatic. We build automation that is logged, tested and easy to switch off.',
    icon: 'zap',
    colour: 'violet',
  },
  {
    title: 'Transform',
    description:
      'Technology is only worth it when it changes how work gets done. We measure our projects by what changes for your people and your customers.',
    icon: 'trending-up',
    colour: 'emerald',
  },
]
