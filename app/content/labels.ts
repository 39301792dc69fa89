/** Words that several pages' layouts share (the section components draw them). */
export const labels = {
  /** Beside a service page's approach: its principles. */
  howWeWork: 'How we work',
  /** A service's link on the services page; the service's title follows for screen readers. */
  learnMore: 'Learn More',
  learnMoreAbout: 'about',
  /** Before a legal page's date. */
  lastUpdated: 'Last updated',
  /** A legal page's table of contents. */
  onThisPage: 'On this page',
} as const
