// The form fill's idempotency key: present without JavaScript, new after a sent message, kept after a failure.
import { render, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ContactForm } from '~/components/contact/ContactForm'
import { IDEMPOTENCY_KEY_PATTERN } from '~/contact/fields'
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '~/contact/status'
import {
  FORM_KEY,
  failedAnswer,
  fillValid,
  keyField,
  okAnswer,
  sentKeys,
  status,
  submitButton,
} from '../support/contact-form-dom'

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
  describe('the idempotency key', () => {
    it('is in a hidden enquiry_key field from the first render, so a post without JavaScript has it', () => {
      const { container } = render(<ContactForm idempotencyKey={FORM_KEY} />)
      const field = keyField(container)
      expect(field.type).toBe('hidden')
      expect(field.value).toBe(FORM_KEY)
      expect(field.closest('form')?.getAttribute('action')).toBe('/api/contact')
    })

    it('is made when none is given', () => {
      const { container } = render(<ContactForm />)
      expect(keyField(container).value).toMatch(IDEMPOTENCY_KEY_PATTERN)
    })

    it('changes after a message is sent: the next message is a new enquiry', async () => {
      submitContact.mockResolvedValue(okAnswer())
      const user = userEvent.setup()
      const { container } = render(<ContactForm idempotencyKey={FORM_KEY} />)
      await fillValid(user)
      await user.click(submitButton())
      await waitFor(() => expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy())
      const next = keyField(container).value
      expect(next).not.toBe(FORM_KEY)
      expect(next).toMatch(IDEMPOTENCY_KEY_PATTERN)

      await fillValid(user)
      await user.click(submitButton())
      await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(2))
      expect(sentKeys(submitContact)).toEqual([FORM_KEY, next])
    })

    it('stays the same after a failure, so sending again cannot make a second enquiry', async () => {
      submitContact
        .mockResolvedValueOnce(failedAnswer())
        .mockRejectedValueOnce(new TypeError('Failed to fetch'))
        .mockResolvedValueOnce(okAnswer())
      const user = userEvent.setup()
      const { container } = render(<ContactForm idempotencyKey={FORM_KEY} />)
      await fillValid(user)
      await user.click(submitButton())
      await waitFor(() => expect(within(status()).getByText(FAILURE_MESSAGE)).toBeTruthy())
      expect(keyField(container).value).toBe(FORM_KEY)
      await user.click(submitButton())
      await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(2))
      await waitFor(() => expect(within(status()).getByText(FAILURE_MESSAGE)).toBeTruthy())
      await user.click(submitButton())
      await waitFor(() => expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy())
      expect(sentKeys(submitContact)).toEqual([FORM_KEY, FORM_KEY, FORM_KEY])
      expect(keyField(container).value).not.toBe(FORM_KEY)
    })
  })
})
