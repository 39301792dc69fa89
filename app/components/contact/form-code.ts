/**
 * The contact form's code: the form, its validation (the server's valibot schema) and the server
 * function's client. It is not part of the page's first load (see DeferredContactForm); this
 * starts its download, for the form on its first use, or ahead of an in-site visit to /contact.
 */
export const loadContactFormCode = () => import('./ContactForm')

/** The element that holds the form (its heading and the form), also the target of #contact-form links. */
export const FORM_CONTAINER_ID = 'contact-form'
