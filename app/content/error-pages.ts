/** The 404 and error pages' words: the designed page, its plain version (document/PlainErrorPage.tsx) and the 404's title. */
export const errorPages = {
  'not-found': {
    eyebrow: 'Error 404',
    title: 'Page not found',
    body: 'The page you were looking for does not exist or has moved. These are good places to continue:',
    home: 'Back to the home page',
    links: [
      { to: '/services', label: 'Services', text: 'DevOps, AI products, automation and web development.' },
      { to: '/products', label: 'Products', text: 'Our voice assistant for websites.' },
      { to: '/about', label: 'About', text: 'Who we are and how we work.' },
      { to: '/contact', label: 'Contact', text: 'Tell us what you are building.' },
    ],
  },
  error: {
    eyebrow: 'Error 500',
    title: 'Something went wrong on our side',
    body: 'This page could not be displayed. Please try again; if it keeps happening, write to us from the contact page.',
    home: 'Go to the home page',
    retry: 'Try again',
    links: [{ to: '/contact', label: 'Contact', text: 'Write to us if it keeps happening.' }],
  },
} as const

export type ErrorKind = keyof typeof errorPages
