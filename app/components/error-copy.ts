/** The error page's words, also used by the plain error document the server sends when the layout itself fails. */
export const errorCopy = {
  eyebrow: 'Error 500',
  title: 'Something went wrong on our side',
  body: 'This page could not be displayed. Please try again; if it keeps happening, write to us from the contact page.',
  home: 'Go to the home page',
} as const
