import { site } from '~/site'
import { webDevelopment } from '../services'
import type { ServiceDetail } from '../types'

export const webDevelopmentDetail: ServiceDetail = {
  service: webDevelopment,
  lead: 'Websites that load fast, read well, rank well and turn visitors into enquiries, with AI features where they genuinely help.',
  approach: {
    title: 'Your Website, Reimagined',
    paragraphs: [
      `${site.name} began by building websites, and we still treat each one as a product: clear goals, content that answers real questions, and engineering that keeps it fast on a mid-range phone over a patchy connection.`,
      'AI is a tool in that work, not a gimmick. We add search that understands questions, assistants that answer from your own content and pages that adapt to what a visitor needs, and we measure whether each one moves the numbers you care about.',
    ],
    highlights: [
      'Fast on real phones and real networks',
      'Accessible to every visitor',
      'Content your team can update themselves',
      'AI features that earn their place',
    ],
  },
  capabilities: {
    title: 'What we build',
    intro: 'Six capabilities we combine to fit your site and your audience.',
    cards: [
      {
        title: 'AI-Enhanced UX',
        description:
          'Search that understands questions, an assistant that answers from your own pages, and navigation that adapts to what visitors are looking for.',
        icon: 'sparkles',
        colour: 'amber',
      },
      {
        title: 'Intelligent Conversion Rate Optimization',
        description:
          'Clear calls to action, shorter forms and experiments on the pages that matter, guided by analytics rather than guesswork.',
        icon: 'mouse-pointer-click',
        colour: 'rose',
      },
      {
        title: 'High-Performance Scalable Architecture',
        description:
          'Server-rendered pages delivered from the edge, optimised images and minimal JavaScript, so the site stays fast when traffic spikes.',
        icon: 'gauge',
        colour: 'cyan',
      },
      {
        title: 'Integrated SEO & Content Strategy',
        description:
          'Technical SEO, structured data and a content plan built around the questions your customers actually ask.',
        icon: 'search',
        colour: 'emerald',
      },
      {
        title: 'Custom AI Feature Integration',
        description:
          'Product recommendations, document upload and summarisation, quote calculators or a voice assistant, connected to your own data and systems.',
        icon: 'puzzle',
        colour: 'violet',
      },
      {
        title: 'Headless CMS & API-First Design',
        description:
          'Content managed in a headless CMS and served through clean APIs, ready for your website, your app and whatever channel comes next.',
        icon: 'blocks',
        colour: 'amber',
      },
    ],
  },
  cta: {
    title: 'Planning a new website or a redesign?',
    text: 'Share your current site, your goals and your timeline. We will reply with questions, a suggested scope and an estimate range.',
    label: 'Start Your Web Project',
    subject: 'website',
  },
}

/** The four service detail pages, in services order. */
