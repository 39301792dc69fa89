import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import { Icon } from '~/components/Icon'
import {
  CONTACT_FIELDS,
  type ContactField,
  type ContactValues,
  clearDraft,
  EMPTY_VALUES,
  ENQUIRY_FIELDS,
  FAILURE_MESSAGE,
  type FieldErrors,
  type FieldRule,
  type FormOutcome,
  firstInvalidField,
  HONEYPOT_FIELD,
  IDEMPOTENCY_KEY_FIELD,
  loadDraft,
  MESSAGES,
  newIdempotencyKey,
  SUCCESS_MESSAGE,
  saveDraft,
  sendContact,
  validateContact,
} from '~/contact'
import { contactPage, FORM_CONTAINER_ID } from '~/content/contact'
import { isSubject, SUBJECTS, type Subject } from '~/content/subjects'
import type { SourceValues } from '~/lib/visit-source'
import { sourceToSend } from '~/lib/visit-source-send'
import { useTurnstile } from './use-turnstile'

export interface ContactFormProps {
  /** From `?subject=` on /contact. */
  defaultSubject?: Subject
  result?: FormOutcome | null
  /** Renewed after each message sent; made when absent. */
  idempotencyKey?: string
  /** Null while off; undefined when unknown (asked on first focus). */
  turnstileSiteKey?: string | null
  /** As the server saw it: hidden fields for a post without JavaScript. */
  source?: SourceValues
}

type Status = 'idle' | 'sending' | 'success' | 'failure'

export const STATUS_ID = 'contact-status'

const fieldId = (field: ContactField) => `contact-${field}`
const errorId = (field: ContactField) => `contact-${field}-error`

function initialValues(defaultSubject: Subject | undefined, result: FormOutcome | null | undefined): ContactValues {
  if (result && 'values' in result) {
    const values = { ...EMPTY_VALUES }
    for (const field of CONTACT_FIELDS) values[field] = result.values[field]
    if (!isSubject(values.subject)) values.subject = ''
    return values
  }
  return { ...EMPTY_VALUES, subject: defaultSubject ?? '' }
}

function initialErrors(result: FormOutcome | null | undefined): FieldErrors {
  if (result?.status !== 'invalid') return {}
  const errors: FieldErrors = {}
  for (const field of CONTACT_FIELDS) {
    const code = result.errors[field]
    if (code) errors[field] = MESSAGES[code]
  }
  return errors
}

function initialStatus(result: FormOutcome | null | undefined): Status {
  if (result?.status === 'success') return 'success'
  if (result?.status === 'failure') return 'failure'
  return 'idle'
}

function fieldValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {}
  for (const element of form.elements) {
    if (
      (element instanceof HTMLInputElement && element.type !== 'hidden') ||
      element instanceof HTMLTextAreaElement ||
      element instanceof HTMLSelectElement
    ) {
      if (element.name) values[element.name] = element.value
    }
  }
  return values
}

const control =
  'w-full rounded-xl border border-line-strong bg-ink-950/60 px-4 py-3 text-fg placeholder:text-subtle transition-colors hover:border-brand-400/60 focus:border-brand-400 aria-invalid:border-danger'

function Field({
  field,
  label,
  error,
  children,
}: {
  field: ContactField
  label: string
  error?: string
  children: ReactNode
}) {
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={fieldId(field)} className="text-sm font-medium text-fg">
        {label}
      </label>
      {children}
      {error ? (
        <p id={errorId(field)} className="flex items-start gap-1.5 text-sm text-danger">
          <Icon name="circle-alert" className="mt-0.5 size-4 shrink-0" />
          <span>{error}</span>
        </p>
      ) : null}
    </div>
  )
}

/** The registry's fields in rows: two `half` fields side by side, a `full` one alone. */
function formRows(): ContactField[][] {
  const rows: ContactField[][] = []
  for (const field of CONTACT_FIELDS) {
    const last = rows.at(-1)
    const pairable = (name: ContactField | undefined) => name !== undefined && ENQUIRY_FIELDS[name].width === 'half'
    if (last && last.length === 1 && pairable(last[0]) && pairable(field)) last.push(field)
    else rows.push([field])
  }
  return rows
}

/** Validated with the server's schema; a plain HTML form posting to /api/contact when no script runs. */
export function ContactForm({ defaultSubject, result, idempotencyKey, turnstileSiteKey, source }: ContactFormProps) {
  const [values, setValues] = useState<ContactValues>(() => initialValues(defaultSubject, result))
  const [errors, setErrors] = useState<FieldErrors>(() => initialErrors(result))
  const [key, setKey] = useState(() => idempotencyKey ?? newIdempotencyKey())
  const [status, setStatus] = useState<Status>(() => initialStatus(result))
  const [honeypot, setHoneypot] = useState('')
  const [enhanced, setEnhanced] = useState(false)
  const sending = useRef(false)
  const formRef = useRef<HTMLFormElement>(null)
  const turnstile = useTurnstile(turnstileSiteKey)

  // After hydration: the form validates itself and keeps what was typed before its code arrived.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on mount
  useEffect(() => {
    setEnhanced(true)
    if (result?.status === 'success') clearDraft()
    const draft = result ? null : loadDraft()
    const typed = formRef.current ? fieldValues(formRef.current) : {}
    const next = { ...values }
    let typedBefore = false
    for (const field of CONTACT_FIELDS) {
      const value = typed[field]
      if (value !== undefined && value !== values[field]) {
        next[field] = value
        typedBefore = true
      } else if (draft?.[field]) next[field] = draft[field]
    }
    if (typedBefore) saveDraft(next)
    if (CONTACT_FIELDS.some((field) => next[field] !== values[field])) setValues(next)
    const trap = typed[HONEYPOT_FIELD]
    if (trap) setHoneypot(trap)
  }, [])

  function update(field: ContactField, value: string) {
    const next = { ...values, [field]: value }
    setValues(next)
    saveDraft(next)
    if (errors[field]) {
      const result = validateContact(next)
      setErrors((current) => ({ ...current, [field]: result.success ? undefined : result.errors[field] }))
    }
  }

  const onChange =
    (field: ContactField) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      update(field, event.target.value)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (sending.current) return
    setStatus('idle')

    const result = validateContact(values)
    if (!result.success) {
      setErrors(result.errors)
      const first = firstInvalidField(result.errors)
      if (first) document.getElementById(fieldId(first))?.focus()
      return
    }
    setErrors({})

    sending.current = true
    setStatus('sending')
    const sent = await sendContact(result.output, {
      honeypot,
      idempotencyKey: key,
      turnstileToken: await turnstile.token(),
      source: sourceToSend(source),
    })
    sending.current = false
    if (sent) {
      turnstile.reset()
      // A new form fill: the next message is a new enquiry. A resend after a failure keeps the key.
      setKey(newIdempotencyKey())
      setValues({ ...EMPTY_VALUES })
      setHoneypot('')
      clearDraft()
      setStatus('success')
    } else {
      setStatus('failure')
    }
  }

  const isSending = status === 'sending'

  /** One field's control, as its registry entry declares it. */
  function input(field: ContactField) {
    const rule: FieldRule = ENQUIRY_FIELDS[field]
    // In the order the attributes were always written, so the page's HTML stays as it was.
    const named = { id: fieldId(field), name: field }
    const state = {
      required: rule.required || undefined,
      value: values[field],
      onChange: onChange(field),
      'aria-invalid': errors[field] ? true : undefined,
      'aria-describedby': errors[field] ? errorId(field) : undefined,
    }
    return (
      <Field key={field} field={field} label={`${rule.label}${rule.required ? ' *' : ''}`} error={errors[field]}>
        {rule.kind === 'choice' ? (
          <select {...named} {...state} className={control}>
            <option value="">{rule.placeholder}</option>
            {SUBJECTS.map((subject) => (
              <option key={subject.value} value={subject.value}>
                {subject.label}
              </option>
            ))}
          </select>
        ) : rule.kind === 'long-text' ? (
          <textarea {...named} rows={rule.rows} {...state} className={`${control} resize-y`} />
        ) : (
          <input {...named} type={rule.kind} autoComplete={rule.autoComplete} {...state} className={control} />
        )}
      </Field>
    )
  }

  return (
    <div id={FORM_CONTAINER_ID} className="glass p-6 sm:p-8">
      <h2 className="text-h3 font-semibold">{contactPage.form.title}</h2>
      <form
        ref={formRef}
        method="post"
        action="/api/contact"
        noValidate={enhanced}
        onSubmit={onSubmit}
        // Turnstile is fetched on the form's first focus, never with the page.
        onFocus={turnstile.start}
        aria-busy={isSending}
        className="mt-6 flex flex-col gap-5"
      >
        {formRows().map((row) =>
          row.length === 1 ? (
            input(row[0] as ContactField)
          ) : (
            <div key={row.join('-')} className="grid gap-5 sm:grid-cols-2">
              {row.map(input)}
            </div>
          ),
        )}

        <input type="hidden" name={IDEMPOTENCY_KEY_FIELD} value={key} />
        {Object.entries(source ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}

        {/* Honeypot: people and assistive technology never see it; bots that fill every field do. */}
        <div hidden aria-hidden="true">
          <label htmlFor="contact-website">Leave this field empty</label>
          <input
            id="contact-website"
            name={HONEYPOT_FIELD}
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={honeypot}
            onChange={(event) => setHoneypot(event.target.value)}
          />
        </div>

        <div ref={turnstile.container} data-testid="turnstile" className="empty:hidden" />

        <button
          type="submit"
          disabled={isSending}
          className="inline-flex min-h-12 items-center justify-center gap-2 self-start rounded-xl bg-brand-400 px-6 py-3 font-semibold text-on-brand transition-colors hover:bg-brand-300 disabled:cursor-not-allowed disabled:opacity-70"
        >
          {isSending ? (
            <Icon name="loader-circle" className="size-5 animate-spin" />
          ) : (
            <Icon name="send" className="size-5" />
          )}
          {isSending ? 'Sending...' : 'Send Message'}
        </button>

        <div id={STATUS_ID} role="status" aria-live="polite">
          {status === 'success' ? (
            <p className="flex items-start gap-2 rounded-xl border border-success/40 bg-success/10 px-4 py-3 text-success">
              <Icon name="circle-check" className="mt-0.5 size-5 shrink-0" />
              <span>{SUCCESS_MESSAGE}</span>
            </p>
          ) : null}
          {status === 'failure' ? (
            <p className="flex items-start gap-2 rounded-xl border border-danger/40 bg-danger/10 px-4 py-3 text-danger">
              <Icon name="circle-alert" className="mt-0.5 size-5 shrink-0" />
              <span>{FAILURE_MESSAGE}</span>
            </p>
          ) : null}
        </div>
      </form>
    </div>
  )
}
