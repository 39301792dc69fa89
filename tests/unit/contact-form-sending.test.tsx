// Sending the contact form: what it sends, its busy state, the messages, the form fill's idempotency key.
import { act, fireEvent, render, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { ContactForm } from '~/components/contact/ContactForm'
import { DRAFT_KEY } from '~/contact/draft'
import { IDEMPOTENCY_KEY_PATTERN } from '~/contact/fields'
import { type ContactReplyBody, FAILURE_MESSAGE, SUCCESS_MESSAGE } from '~/contact/status'
import { VISIT_KEY } from '~/lib/visit-source'
import {
  deferred,
  FORM_KEY,
  failedAnswer,
  fields,
  fillValid,
  keyField,
  okAnswer,
  sendFilled,
  sentKeys,
  shown,
  status,
  statusSays,
  submitButton,
} from '../support/contact-form-dom'
import { submitContact } from '../support/contact-form-server'

// The server calls are mocked at the module boundary (the loader's server half reads workerd's env).
vi.mock('~/contact/contact.functions', () => import('../support/contact-form-server'))
vi.mock('~/server/runtime.server', () => ({ workerRuntime: vi.fn(), workerEnv: vi.fn() }))

describe('sending', () => {
  it('sends the trimmed message, the honeypot as filled (the server decides) and the form fill’s key, never an access key', async () => {
    submitContact.mockResolvedValue(okAnswer())
    const user = userEvent.setup()
    const { container } = render(<ContactForm idempotencyKey={FORM_KEY} />)
    await fillValid(user)
    await user.type(fields().name, '  ')
    fireEvent.change(container.querySelector('input[name="website"]') as HTMLInputElement, {
      target: { value: 'http://spam.example' },
    })
    await user.click(submitButton())
    await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(1))
    expect(submitContact.mock.calls[0]?.[0]).toEqual({
      data: {
        name: 'Ravi Kumar',
        email: 'ravi@example.com',
        company: 'Godavari Foods',
        subject: 'automation',
        message: 'Please call me.',
        website: 'http://spam.example',
        enquiry_key: FORM_KEY,
        // The page the form was sent from (no visit kept in this tab: nothing else of its source).
        source_page: '/',
      },
    })
  })

  it('sends where the visit came from as the tab kept it, with the page the form is on', async () => {
    submitContact.mockResolvedValue(okAnswer())
    const visit = { source_first_page: '/services/devops', source_referrer: 'www.google.com', utm_source: 'news' }
    sessionStorage.setItem(VISIT_KEY, JSON.stringify(visit))
    // The server's view of the page (no JavaScript) is only the fallback: the tab's record wins.
    await sendFilled(<ContactForm source={{ source_page: '/contact', source_first_page: '/contact' }} />)
    await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(1))
    expect(submitContact.mock.calls[0]?.[0]?.data).toMatchObject({ ...visit, source_page: '/' })
  })

  it('carries the server’s view of the source in hidden fields, for a post without JavaScript', () => {
    const { container } = render(
      <ContactForm source={{ source_page: '/contact', source_referrer: 'partner.example', utm_medium: 'social' }} />,
    )
    const hidden = [...container.querySelectorAll<HTMLInputElement>('input[type="hidden"]')]
    expect(Object.fromEntries(hidden.map((input) => [input.name, input.value]))).toMatchObject({
      source_page: '/contact',
      source_referrer: 'partner.example',
      utm_medium: 'social',
    })
  })

  it('reads "Sending..." and is disabled while sending; a second click sends nothing', async () => {
    const request = deferred<ContactReplyBody>()
    submitContact.mockReturnValue(request.promise)
    const { user, container } = await sendFilled(<ContactForm />)
    const button = submitButton() as HTMLButtonElement
    expect(button.textContent).toBe('Sending...')
    expect(button.disabled).toBe(true)
    await user.click(button)
    fireEvent.submit(container.querySelector('form') as HTMLFormElement)
    expect(submitContact).toHaveBeenCalledTimes(1)

    await act(async () => request.resolve(okAnswer()))
    expect((submitButton() as HTMLButtonElement).disabled).toBe(false)
    expect(submitButton().textContent).toBe('Send Message')
  })

  it('on success shows the green message with an icon and clears every field', async () => {
    submitContact.mockResolvedValue(okAnswer())
    await sendFilled(<ContactForm defaultSubject="general" />)
    await statusSays(SUCCESS_MESSAGE)
    const message = within(status()).getByText(SUCCESS_MESSAGE).parentElement as HTMLElement
    expect(message.className).toContain('text-success')
    expect(message.querySelector('svg')).toBeTruthy()
    expect(status().getAttribute('aria-live')).toBe('polite')
    expect(shown()).toEqual(['', '', '', '', ''])
  })

  const rateLimited: ContactReplyBody = { ok: false, error: 'rate_limited', message: FAILURE_MESSAGE }
  it.each<[string, () => unknown]>([
    ['an enquiry not stored (503)', () => Promise.resolve(failedAnswer())],
    ['the rate limit (429)', () => Promise.resolve(rateLimited)],
    ['an answer that is not ok', () => Promise.resolve({ ok: false })],
    ['a page that is not JSON (handed over as the raw Response)', () => Promise.resolve(new Response('<html>'))],
    ['a refusal thrown as a Response (400)', () => Promise.reject(Response.json({ ok: false }, { status: 400 }))],
    ['a JSON answer from middleware (413)', () => Promise.resolve({ ok: false, error: 'payload_too_large' })],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('on %s shows the red message and keeps every field', async (_, answer) => {
    submitContact.mockImplementation(answer)
    await sendFilled(<ContactForm />)
    await statusSays(FAILURE_MESSAGE)
    const message = within(status()).getByText(FAILURE_MESSAGE).parentElement as HTMLElement
    expect(message.className).toContain('text-danger')
    expect(message.querySelector('svg')).toBeTruthy()
    expect(within(status()).queryByText(SUCCESS_MESSAGE)).toBeNull()
    expect(shown()).toEqual(['Ravi Kumar', 'ravi@example.com', 'Godavari Foods', 'automation', 'Please call me.'])
  })

  it('clears the status message when a new submit starts', async () => {
    submitContact.mockResolvedValueOnce(failedAnswer())
    const { user } = await sendFilled(<ContactForm />)
    await statusSays(FAILURE_MESSAGE)
    const request = deferred<ContactReplyBody>()
    submitContact.mockReturnValueOnce(request.promise)
    await user.click(submitButton())
    expect(status().textContent).toBe('')
    expect(submitButton().textContent).toBe('Sending...')
    await act(async () => request.resolve(okAnswer()))
    expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy()
  })

  it('clears the status message when a new submit stops at validation', async () => {
    submitContact.mockResolvedValueOnce(okAnswer())
    const { user } = await sendFilled(<ContactForm />)
    await statusSays(SUCCESS_MESSAGE)
    await user.click(submitButton())
    expect(status().textContent).toBe('')
    expect(submitContact).toHaveBeenCalledTimes(1)
  })
})

describe('the idempotency key', () => {
  it('is in a hidden enquiry_key field from the first render (a post without JavaScript has it), or made', () => {
    const field = keyField(render(<ContactForm idempotencyKey={FORM_KEY} />).container)
    expect([field.type, field.value]).toEqual(['hidden', FORM_KEY])
    expect(keyField(render(<ContactForm />).container).value).toMatch(IDEMPOTENCY_KEY_PATTERN)
  })

  it('changes after a message is sent: the next message is a new enquiry', async () => {
    submitContact.mockResolvedValue(okAnswer())
    const { user, container } = await sendFilled(<ContactForm idempotencyKey={FORM_KEY} />)
    await statusSays(SUCCESS_MESSAGE)
    const next = keyField(container).value
    expect(next).not.toBe(FORM_KEY)
    expect(next).toMatch(IDEMPOTENCY_KEY_PATTERN)
    await fillValid(user)
    await user.click(submitButton())
    await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(2))
    expect(sentKeys(submitContact)).toEqual([FORM_KEY, next])
  })

  it('and the draft stay after a failure, so sending again cannot make a second enquiry; once sent, the draft goes', async () => {
    submitContact
      .mockResolvedValueOnce(failedAnswer())
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(okAnswer())
    const { user, container } = await sendFilled(<ContactForm idempotencyKey={FORM_KEY} />)
    await statusSays(FAILURE_MESSAGE)
    expect(keyField(container).value).toBe(FORM_KEY)
    expect(sessionStorage.getItem(DRAFT_KEY)).toContain('Ravi Kumar')
    await user.click(submitButton())
    await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(2))
    await statusSays(FAILURE_MESSAGE)
    await user.click(submitButton())
    await statusSays(SUCCESS_MESSAGE)
    expect(sentKeys(submitContact)).toEqual([FORM_KEY, FORM_KEY, FORM_KEY])
    expect(keyField(container).value).not.toBe(FORM_KEY)
    expect(sessionStorage.getItem(DRAFT_KEY)).toBeNull()
  })
})
