/** The services page's own words (the cards come from services.ts, shared with the home page). */
export const servicesPage = {
  eyebrow: 'Services',
  title: 'Engineering that keeps your business running',
  lead: 'Four practices, one team. We design, build and operate the systems behind your products, and automate the work around them, so your people can focus on what only they can do.',
  cta: {
    title: 'Not sure where to start?',
    text: 'Tell us about the system or the process that is slowing you down. We will reply with questions, a suggested first step and an honest view of whether we are the right team for it.',
    label: 'Talk to an Engineer',
  },
} as const
