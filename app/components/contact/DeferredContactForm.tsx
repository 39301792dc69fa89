import { lazy, Suspense, use } from 'react'
import { hasDraft } from '~/contact/draft'
import { FORM_CONTAINER_ID } from '~/content/contact'
import { usePageValue } from '~/document/use-page-value'
import type { ContactFormProps } from './ContactForm'
import { loadContactFormCode } from './form-code'

/**
 * The server renders the whole form, a plain HTML form posting to /api/contact, so it works from the
 * first paint. Its code is fetched when the visitor first points at, focuses or types in it: React
 * leaves the suspended boundary's HTML in place until then, and ContactForm reads the fields when
 * it mounts, so nothing typed is lost. A tab holding an unsent message fetches it at once.
 */
const ContactForm = lazy(() => loadContactFormCode().then((module) => ({ default: module.ContactForm })))

const FIRST_USE_EVENTS = ['pointerdown', 'focusin', 'keydown', 'input'] as const

let firstUse: Promise<void> | undefined

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

/** True while React hydrates (it reads the server snapshot then). */
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
