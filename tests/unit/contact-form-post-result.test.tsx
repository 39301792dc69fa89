// The contact form rendering the result of a post without JavaScript: success, failure, field errors.
import { render, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ContactForm } from '~/components/contact/ContactForm'
import { MESSAGES } from '~/contact/schema'
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '~/contact/status'
import { EMPTY_VALUES } from '~/ledger'
import { fields, status } from '../support/contact-form-dom'

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
  describe('the result of a post without JavaScript', () => {
    const values = {
      ...EMPTY_VALUES,
      name: 'Ravi',
      email: 'ravi@example.com',
      company: 'Acme',
      subject: 'general',
      message: 'Hello',
    }

    it('shows success', () => {
      render(<ContactForm result={{ status: 'success' }} />)
      expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy()
    })

    it('shows failure with the visitor’s values back in the fields', () => {
      render(<ContactForm result={{ status: 'failure', values }} defaultSubject="devops" />)
      expect(within(status()).getByText(FAILURE_MESSAGE)).toBeTruthy()
      const f = fields()
      expect([f.name.value, f.email.value, f.company.value, f.subject.value, f.message.value]).toEqual([
        'Ravi',
        'ravi@example.com',
        'Acme',
        'general',
        'Hello',
      ])
    })

    it('shows the server’s field errors, with an unknown subject left unselected', () => {
      render(
        <ContactForm
          result={{
            status: 'invalid',
            values: { ...values, email: 'nope', subject: 'nonsense' },
            errors: { email: 'emailInvalid' },
          }}
        />,
      )
      expect(fields().email.value).toBe('nope')
      expect(fields().email.getAttribute('aria-invalid')).toBe('true')
      // The page's own words for the code.
      expect(screen.getByText(MESSAGES.emailInvalid)).toBeTruthy()
      expect(fields().subject.value).toBe('')
      expect(status().textContent).toBe('')
    })
  })
})
