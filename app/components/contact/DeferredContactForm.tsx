import { lazy, Suspense, use } from 'react'
import { hasDraft } from '~/contact/draft'
import { FORM_CONTAINER_ID } from '~/content/contact'
import { usePageValue } from '~/document/use-page-value'
import type { ContactFormProps } from './ContactForm'
import { loadContactFormCode } from './form-code'

/** The form posts as plain HTML from the first paint; its code comes on first use, keeping what was typed. */
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

// Listening starts as the module loads, so a press between the page's hydration and the form's is not missed.
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
