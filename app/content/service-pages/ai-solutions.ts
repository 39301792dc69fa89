import { site } from '~/site'
import { aiSolutions } from '../services'
import type { ServiceDetail } from '../types'

export const aiSolutionsDetail: ServiceDetail = {
  service: aiSolutions,
  lead: 'We turn AI ideas into products that work in the real world: prototypes you can put in front of users within weeks, and the product engineering that takes them to production.',
  approach: {
    title: 'From Concept to Creation',
    paragraphs: [
      'Most AI projects stall between an impressive demo and a product people rely on. We close that gap by deciding early what the model must get right, how a person checks its output, and what it will cost to run for every user, and then building the software around the model to that standard.',
      `We build our own products the same way. The three below are in active development at ${site.name}; the methods behind them are the ones we apply to client projects.`,
    ],
    highlights: [
      'A working prototype before the big investment',
      'Human review wherever accuracy matters',
      'Costs per user measured from the first release',
      'Your data stays yours, and out of public training sets',
    ],
  },
  capabilities: {
    title: 'What we are building',
    intro: 'Three products and research lines that show how we work with AI.',
    cards: [
      {
        title: `${site.product.name} Voice Assistant`,
        description:
          'A voice assistant with an animated avatar that embeds into any website, answers visitors from your own content, and can book appointments and fill in forms by voice.',
        icon: 'mic',
        colour: 'cyan',
        badge: 'Launching soon',
      },
      {
        title: 'Symbolic AI from Sanskrit Grammar',
        description:
          'A research system that applies the rules of Panini’s grammar and classical Indian logic to language understanding: precise, explainable reasoning alongside statistical models.',
        icon: 'network',
        colour: 'violet',
        badge: 'Research',
      },
      {
        title: 'AI-Assisted Document Automation',
        description:
          'Reads invoices, forms and contracts, extracts the fields that matter and drafts routine documents, with a person approving anything the system is unsure about.',
        icon: 'file-text',
        colour: 'emerald',
      },
    ],
  },
  cta: {
    title: 'Have an AI idea worth building?',
    text: 'Tell us the problem you want to solve and who it is for. We will help you find the smallest version worth building and what it would take.',
    label: 'Bring Your AI Idea to Life',
  },
}
