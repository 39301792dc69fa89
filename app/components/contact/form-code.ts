/**
 * The contact form's code: the form, its validation (the server's valibot schema) and the server
 * function's client. It is not part of the page's first load (see DeferredContactForm); this
 * starts its download, for the form on its first use, or ahead of an in-site visit to /contact.
 */
export const loadContactFormCode = () => import('./ContactForm')
