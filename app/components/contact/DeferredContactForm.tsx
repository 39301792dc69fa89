import { lazy, Suspense, use } from 'react'
import { hasDraft } from '~/contact/draft'
import { FORM_CONTAINER_ID } from '~/content/contact'
import { usePageValue } from '~/document/use-page-value'
import type { ContactFormProps } from './ContactForm'
import { loadContactFormCode } from './form-code'

/**
 * The contact form, whose code the browser fetches when the visitor first uses the form.
 *
 * The server renders the whole form; without its code it is a plain HTML form that posts to
 * /api/contact (see ContactForm), so it works from the first paint. While the page hydrates, the
 * form stays as the server rendered it (React leaves a suspended boundary's HTML in place) until
 * the visitor points at it, focuses it or types in it; then its code is fetched and the form
 * hydrates, keeping anything typed meanwhile (ContactForm reads the fields when it mounts). A
 * press of "Send Message" before that posts the form natively, with the same outcome. A tab that
 * holds an unsent message fetches the code at once, so the message is back without a touch.
 *
 * After an in-site navigation the form renders at once (the route's loader has started its code).
 */
const ContactForm = lazy(() => loadContactFormCode().then((module) => ({ default: module.ContactForm })))

const FIRST_USE_EVENTS = ['pointerdown', 'focusin', 'keydown', 'input'] as const

let firstUse: Promise<void> | undefined

/**
 * Resolves when the visitor first points at, focuses or types in the form; at once when this tab
 * holds an unsent message, which the form then restores as soon as the page is interactive.
 */
function formFirstUsed(): Promise<void> {
  firstUse ??= new Promise<void>((resolve) => {
    if (hasDraft()) return resolve()
    const onEvent = (event: Event) => {
      if (!(event.target instanceof Element) || !event.target.closest(`#${FORM_CONTAINER_ID}`)) return
      for (const type of FIRST_USE_EVENTS) document.removeEventListener(type, onEvent, true)
      resolve()
    }
    for (const type of FIRST_USE_EVENTS) document.addEventListener(type, onEvent, { capture: true, passive: true })
  })
  return firstUse
}

// Listening starts as this module loads, before React hydrates the form: a press that comes
// between the page's hydration and the form's own is not missed.
if (typeof document !== 'undefined') formFirstUsed()

/**
 * True while React hydrates this part of the page (React reads the server snapshot then), false
 * when it renders in the browser, as after an in-site navigation.
 */
const useHydrating = () => usePageValue(() => false, true)

function FormWhenUsed(props: ContactFormProps) {
  const hydrating = useHydrating()
  if (hydrating && typeof document !== 'undefined') use(formFirstUsed())
  return <ContactForm {...props} />
}

export function DeferredContactForm(props: ContactFormProps) {
  return (
    <Suspense fallback={null}>
      <FormWhenUsed {...props} />
    </Suspense>
  )
}
