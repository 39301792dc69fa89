import { lazy, Suspense, use } from 'react'
import { ContactButton } from '~/components/sections/ContactButton'
import { usePageValue } from '~/document/use-page-value'
import type { EarlyAccessFormProps } from './EarlyAccessForm'

/**
 * The products panel's button. Where a confirmation can be sent, the server renders the whole form
 * (it works from the first paint, without JavaScript); its code is fetched when the visitor first
 * points at, focuses or types in it, as the contact form's is (DeferredContactForm).
 * Elsewhere the button opens the contact form with the voice assistant's subject.
 */
const EarlyAccessForm = lazy(() => import('./EarlyAccessForm').then((module) => ({ default: module.EarlyAccessForm })))

const CONTAINER_ID = 'early-access'
const FIRST_USE_EVENTS = ['pointerdown', 'focusin', 'keydown', 'input'] as const

let firstUse: Promise<void> | undefined

function formFirstUsed(): Promise<void> {
  firstUse ??= new Promise<void>((resolve) => {
    const onEvent = (event: Event) => {
      if (!(event.target instanceof Element) || !event.target.closest(`#${CONTAINER_ID}`)) return
      for (const type of FIRST_USE_EVENTS) document.removeEventListener(type, onEvent, true)
      resolve()
    }
    for (const type of FIRST_USE_EVENTS) document.addEventListener(type, onEvent, { capture: true, passive: true })
  })
  return firstUse
}

// Listening starts as this module loads: a press between the page's hydration and the form's is not missed.
if (typeof document !== 'undefined') formFirstUsed()

function FormWhenUsed(props: EarlyAccessFormProps) {
  const hydrating = usePageValue(() => false, true)
  if (hydrating && typeof document !== 'undefined') use(formFirstUsed())
  return <EarlyAccessForm {...props} />
}

export function EarlyAccessSignup({ on, ...props }: EarlyAccessFormProps & { on: boolean }) {
  if (!on) return <ContactButton subject="voice-ai">{props.label}</ContactButton>
  return (
    <Suspense fallback={null}>
      <FormWhenUsed {...props} />
    </Suspense>
  )
}
