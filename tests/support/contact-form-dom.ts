// The contact form in the DOM for the component tests: fields, status line, a valid fill, answers in flight.
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactElement } from 'react'
import { expect, type Mock } from 'vitest'
import { IDEMPOTENCY_KEY_FIELD } from '~/contact/fields'
import { type ContactReplyBody, FAILURE_MESSAGE } from '~/contact/status'

// What the server function resolves with, as Start's client hands it over: the typed answer.
export const okAnswer = (): ContactReplyBody => ({ ok: true })
export const failedAnswer = (): ContactReplyBody => ({ ok: false, error: 'not_stored', message: FAILURE_MESSAGE })
export const FORM_KEY = 'form-fill-key-0123456789'

/** The hidden field that carries this form fill's idempotency key. */
export const keyField = (container: HTMLElement) =>
  container.querySelector(`input[name="${IDEMPOTENCY_KEY_FIELD}"]`) as HTMLInputElement
/** The enquiry_key of each call to the (mocked) server function so far. */
export const sentKeys = (submitContact: Mock) =>
  submitContact.mock.calls.map((call) => call[0]?.data?.[IDEMPOTENCY_KEY_FIELD])

/** A promise the test settles when it wants: the request in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

export const fields = () => ({
  name: screen.getByLabelText('Full Name *') as HTMLInputElement,
  email: screen.getByLabelText('Email Address *') as HTMLInputElement,
  company: screen.getByLabelText('Company Name') as HTMLInputElement,
  subject: screen.getByLabelText('Subject *') as unknown as HTMLSelectElement,
  message: screen.getByLabelText('Message *') as HTMLTextAreaElement,
})
export const submitButton = () => screen.getByRole('button', { name: /send message|sending/i })
export const status = () => screen.getByRole('status')
/** What the five fields show, in form order. */
export const shown = () => Object.values(fields()).map((field) => field.value)
/** Waits until the status line says `message`. */
export const statusSays = (message: string) => waitFor(() => expect(within(status()).getByText(message)).toBeTruthy())

export async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  const f = fields()
  await user.type(f.name, 'Ravi Kumar')
  await user.type(f.email, 'ravi@example.com')
  await user.type(f.company, 'Godavari Foods')
  await user.selectOptions(screen.getByLabelText('Subject *'), 'automation')
  await user.type(f.message, 'Please call me.')
}

/** Renders `form`, fills it validly and sends it. */
export async function sendFilled(form: ReactElement) {
  const user = userEvent.setup()
  const view = render(form)
  await fillValid(user)
  await user.click(submitButton())
  return { user, ...view }
}
