import { lazy, Suspense, use } from 'react'
import { ContactButton } from '~/components/sections/ContactButton'
import { usePageValue } from '~/document/use-page-value'
import type { EarlyAccessFormProps } from './EarlyAccessForm'

/** The server renders the whole form (no JavaScript needed); its code loads on first use, as DeferredContactForm's does. */
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
