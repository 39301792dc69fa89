// The contact form's draft, kept in the tab's sessionStorage until the message is sent.
import { render, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ContactForm } from '~/components/contact/ContactForm'
import { DRAFT_KEY } from '~/contact/draft'
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '~/contact/status'
import { failedAnswer, fields, fillValid, okAnswer, status, submitButton } from '../support/contact-form-dom'

// The server call, mocked at the module boundary: the form and its client code are real.
const submitContact = vi.hoisted(() => vi.fn())
const getTurnstileSiteKey = vi.hoisted(() => vi.fn())
vi.mock('~/contact/contact.functions', () => ({ submitContact, getTurnstileSiteKey }))
// The route loader's server half reads the Worker's env (only workerd has it); the form never runs it.
vi.mock('~/server/runtime.server', () => ({ workerRuntime: vi.fn(), workerEnv: vi.fn() }))

beforeEach(() => {
  submitContact.mockReset()
  getTurnstileSiteKey.mockReset()
})

describe('ContactForm', () => {
  describe('the draft', () => {
    it('is kept in sessionStorage as the visitor types', async () => {
      const user = userEvent.setup()
      render(<ContactForm />)
      await user.type(fields().name, 'Ravi')
      await user.type(fields().message, 'Half a thought')
      expect(JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? '{}')).toMatchObject({
        name: 'Ravi',
        message: 'Half a thought',
      })
    })

    it('is restored on the next visit in this tab', async () => {
      sessionStorage.setItem(
        DRAFT_KEY,
        JSON.stringify({ name: 'Ravi', email: 'ravi@example.com', company: '', subject: 'website', message: 'Hi' }),
      )
      render(<ContactForm />)
      await waitFor(() => expect(fields().name.value).toBe('Ravi'))
      expect(fields().subject.value).toBe('website')
      expect(fields().message.value).toBe('Hi')
    })

    it('keeps a preselected subject when the draft has none', async () => {
      sessionStorage.setItem(DRAFT_KEY, JSON.stringify({ name: 'Ravi', subject: '' }))
      render(<ContactForm defaultSubject="voice-ai" />)
      await waitFor(() => expect(fields().name.value).toBe('Ravi'))
      expect(fields().subject.value).toBe('voice-ai')
    })

    it('ignores a draft that is not what the form stores', async () => {
      sessionStorage.setItem(DRAFT_KEY, JSON.stringify({ name: 42, subject: 'hacked', message: 'ok' }))
      render(<ContactForm />)
      await waitFor(() => expect(fields().message.value).toBe('ok'))
      expect(fields().name.value).toBe('')
      expect(fields().subject.value).toBe('')
      sessionStorage.setItem(DRAFT_KEY, '{not json')
      expect(() => render(<ContactForm />)).not.toThrow()
    })

    it('is kept after a failure and dropped once the message is sent', async () => {
      submitContact.mockResolvedValueOnce(failedAnswer()).mockResolvedValueOnce(okAnswer())
      const user = userEvent.setup()
      render(<ContactForm />)
      await fillValid(user)
      await user.click(submitButton())
      await waitFor(() => expect(within(status()).getByText(FAILURE_MESSAGE)).toBeTruthy())
      expect(sessionStorage.getItem(DRAFT_KEY)).toContain('Ravi Kumar')
      await user.click(submitButton())
      await waitFor(() => expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy())
      expect(sessionStorage.getItem(DRAFT_KEY)).toBeNull()
    })
  })
})
