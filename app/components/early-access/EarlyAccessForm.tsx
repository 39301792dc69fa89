import { type FormEvent, useEffect, useRef, useState } from 'react'
import { buttonStyles } from '~/components/sections/styles'
import type { EarlyAccessFormResult } from '~/contact'
import { EARLY_ACCESS_CONSENT, earlyAccessForm } from '~/content/early-access'
import { EARLY_ACCESS_FIELDS } from '~/ledger'

const loadCode = () => import('./early-access-code')

const { id } = earlyAccessForm
const field = EARLY_ACCESS_FIELDS.email

export interface EarlyAccessFormProps {
  label: string
  turnstileSiteKey: string | null
  result: EarlyAccessFormResult | undefined
}

/** A `details` with one field: without JavaScript a plain post answered with a 303 back here; with it, answered in place. */
export function EarlyAccessForm({ label, turnstileSiteKey, result }: EarlyAccessFormProps) {
  const [shown, setShown] = useState<EarlyAccessFormResult | 'sending' | undefined>(result)
  const turnstile = useRef<HTMLDivElement>(null)
  const form = useRef<HTMLFormElement>(null)

  const firstUse = () => {
    void loadCode().then((code) => {
      if (turnstileSiteKey && turnstile.current) return code.startTurnstile(turnstile.current, turnstileSiteKey)
    })
  }
  const [ready, setReady] = useState(false)
  // The field may have been focused before this code arrived (it loads on first use): start then.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the form mounts.
  useEffect(() => {
    setReady(true)
    if (form.current?.contains(document.activeElement)) firstUse()
  }, [])
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    if (!form.reportValidity()) return
    setShown('sending')
    void loadCode()
      .then((code) => code.sendSignup(form))
      .catch(() => 'failed' as const)
      .then((answer) => {
        setShown(answer)
        if (answer === 'sent') form.reset()
      })
  }
  const message =
    shown === 'sending'
      ? earlyAccessForm.sending
      : shown === 'invalid'
        ? field.messages.invalid
        : shown
          ? earlyAccessForm[shown]
          : ''
  return (
    <details id={id} open={result !== undefined} className="group w-full">
      <summary
        className={`${buttonStyles.primary} mx-auto w-fit cursor-pointer list-none [&::-webkit-details-marker]:hidden`}
      >
        {label}
      </summary>
      <form
        method="post"
        action="/api/early-access"
        ref={form}
        data-ready={ready || undefined}
        onSubmit={submit}
        onFocus={firstUse}
        onPointerDown={firstUse}
        className="mx-auto mt-6 flex max-w-md flex-col gap-3 text-left"
      >
        <label htmlFor={`${id}-email`} className="font-semibold text-fg">
          {field.label} <span aria-hidden="true">*</span>
        </label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          required
          maxLength={field.max}
          autoComplete={field.autoComplete}
          aria-describedby={`${id}-consent ${id}-status`}
          aria-invalid={shown === 'invalid' || undefined}
          className="min-h-12 rounded-xl border border-line-strong bg-ink-950/60 px-4 text-fg"
        />
        <div aria-hidden="true" className="hidden">
          <label htmlFor={`${id}-website`}>Website</label>
          <input id={`${id}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <p id={`${id}-consent`} className="text-sm text-muted">
          {EARLY_ACCESS_CONSENT.line}
        </p>
        <div ref={turnstile} data-testid="early-access-turnstile" className="empty:hidden" />
        <button type="submit" disabled={shown === 'sending'} className={buttonStyles.primary}>
          {earlyAccessForm.submit}
        </button>
        <p id={`${id}-status`} role="status" className="min-h-6 text-sm text-fg">
          {message}
        </p>
      </form>
    </details>
  )
}
