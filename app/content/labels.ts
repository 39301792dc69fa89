/** Words that several pages' layouts share (the section components draw them). */
export const labels = {
  howWeWork: 'How we work',
  /** A service's link on the services page; the service's title follows for screen readers. */
  learnMore: 'Learn More',
  learnMoreAbout: 'about',
  lastUpdated: 'Last updated',
  onThisPage: 'On this page',
} as const
