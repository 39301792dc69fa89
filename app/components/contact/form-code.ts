/** Not in the first load (DeferredContactForm): fetched on the form's first use, or ahead of a visit to /contact. */
export const loadContactFormCode = () => import('./ContactForm')
