// The contact form's fields: labels, a plain form without scripts, the honeypot, the checks before
// sending, the draft kept in the tab, and the result of a post without JavaScript.
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { ContactForm } from '~/components/contact/ContactForm'
import { DRAFT_KEY } from '~/contact/draft'
import { MESSAGES } from '~/contact/schema'
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '~/contact/status'
import { EMPTY_VALUES } from '~/ledger'
import { fields, shown, status, submitButton } from '../support/contact-form-dom'
import { submitContact } from '../support/contact-form-server'

// The server calls are mocked at the module boundary (the loader's server half reads workerd's env).
vi.mock('~/contact/contact.functions', () => import('../support/contact-form-server'))
vi.mock('~/server/runtime.server', () => ({ workerRuntime: vi.fn(), workerEnv: vi.fn() }))

describe('ContactForm', () => {
  it('has the spec labels, each tied to its control', () => {
    render(<ContactForm />)
    expect(screen.getByRole('heading', { name: 'Send us a message' })).toBeTruthy()
    const f = fields()
    expect([f.name.tagName, f.name.name, f.email.type, f.subject.tagName, f.message.tagName]).toEqual([
      'INPUT',
      'name',
      'email',
      'SELECT',
      'TEXTAREA',
    ])
    expect([f.name.required, f.email.required, f.company.required]).toEqual([true, true, false])
    expect(f.message.getAttribute('rows')).toBe('6')
    const options = [...f.subject.options].map((o) => [o.value, o.textContent])
    expect(options).toEqual([
      ['', 'Select a subject'],
      ['devops', 'DevOps & Cloud Automation'],
      ['website', 'AI-Powered Web Solutions'],
      ['automation', 'Intelligent Automation'],
      ['voice-ai', 'Vaani AI Voice Assistant Inquiry'],
      ['general', 'General Inquiry'],
    ])
    expect(f.subject.value).toBe('')
  })

  it('is a plain form posting to /api/contact when no script runs, validates itself once mounted, no inline styles', () => {
    const { container } = render(<ContactForm />)
    const form = container.querySelector('form') as HTMLFormElement
    expect([form.getAttribute('method'), form.getAttribute('action'), form.noValidate]).toEqual([
      'post',
      '/api/contact',
      true,
    ])
    expect(container.querySelectorAll('[style]')).toHaveLength(0)
  })

  it('preselects the subject it is given', () => {
    render(<ContactForm defaultSubject="devops" />)
    expect(fields().subject.value).toBe('devops')
  })

  it('has a honeypot that people and assistive technology never reach', () => {
    const { container } = render(<ContactForm />)
    const honeypot = container.querySelector('input[name="website"]') as HTMLInputElement
    expect(honeypot).toBeTruthy()
    expect(honeypot.tabIndex).toBe(-1)
    expect(honeypot.autocomplete).toBe('off')
    const wrapper = honeypot.parentElement as HTMLElement
    expect(wrapper.hidden).toBe(true)
    expect(wrapper.getAttribute('aria-hidden')).toBe('true')
    // Role queries see what assistive technology sees: the honeypot is not there, the real fields are.
    expect(screen.queryByRole('textbox', { name: 'Leave this field empty' })).toBeNull()
    expect(screen.getAllByRole('textbox')).toHaveLength(4)
  })

  describe('validation before sending', () => {
    it('shows each error next to its field, marks it invalid, focuses the first, and sends nothing', async () => {
      const user = userEvent.setup()
      render(<ContactForm />)
      await user.click(submitButton())

      const f = fields()
      expect(f.name.getAttribute('aria-invalid')).toBe('true')
      const errorOf = (field: Pick<Element, 'getAttribute'>) =>
        document.getElementById(field.getAttribute('aria-describedby') ?? '')
      expect([f.name, f.email, f.subject, f.message].map((field) => errorOf(field)?.textContent)).toEqual([
        MESSAGES.nameRequired,
        MESSAGES.emailRequired,
        MESSAGES.subjectRequired,
        MESSAGES.messageRequired,
      ])
      expect(f.company.getAttribute('aria-invalid')).toBeNull()
      expect(f.company.getAttribute('aria-describedby')).toBeNull()
      expect(document.activeElement).toBe(f.name)
      expect(submitContact).not.toHaveBeenCalled()
    })

    it('checks the e-mail format and moves focus to the first field still wrong', async () => {
      const user = userEvent.setup()
      render(<ContactForm />)
      const f = fields()
      await user.type(f.name, 'Ravi')
      await user.type(f.email, 'ravi@example..com')
      await user.click(submitButton())
      expect(screen.getByText(MESSAGES.emailInvalid)).toBeTruthy()
      expect(document.activeElement).toBe(f.email)
      expect(f.name.getAttribute('aria-invalid')).toBeNull()
      expect(submitContact).not.toHaveBeenCalled()
    })

    it('clears a field’s error once it is corrected', async () => {
      const user = userEvent.setup()
      render(<ContactForm />)
      await user.click(submitButton())
      await user.type(fields().name, 'Ravi')
      expect(fields().name.getAttribute('aria-invalid')).toBeNull()
      expect(screen.queryByText(MESSAGES.nameRequired)).toBeNull()
      expect(screen.getByText(MESSAGES.emailRequired)).toBeTruthy()
    })
  })

  describe('the draft, kept in sessionStorage until the message is sent', () => {
    it('is kept as the visitor types', async () => {
      const user = userEvent.setup()
      render(<ContactForm />)
      await user.type(fields().name, 'Ravi')
      await user.type(fields().message, 'Half a thought')
      const draft = JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? '{}')
      expect(draft).toMatchObject({ name: 'Ravi', message: 'Half a thought' })
    })

    it('is restored on the next visit in this tab', async () => {
      const draft = { name: 'Ravi', email: 'ravi@example.com', company: '', subject: 'website', message: 'Hi' }
      sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft))
      render(<ContactForm />)
      await waitFor(() => expect(shown()).toEqual(['Ravi', 'ravi@example.com', '', 'website', 'Hi']))
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
      expect([fields().name.value, fields().subject.value]).toEqual(['', ''])
      sessionStorage.setItem(DRAFT_KEY, '{not json')
      expect(() => render(<ContactForm />)).not.toThrow()
    })
  })

  describe('the result of a post without JavaScript', () => {
    const values = { ...EMPTY_VALUES, name: 'Ravi', email: 'ravi@example.com', company: 'Acme', message: 'Hello' }

    it('shows success', () => {
      render(<ContactForm result={{ status: 'success' }} />)
      expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy()
    })

    it('shows failure with the visitor’s values back in the fields', () => {
      render(
        <ContactForm
          result={{ status: 'failure', values: { ...values, subject: 'general' } }}
          defaultSubject="devops"
        />,
      )
      expect(within(status()).getByText(FAILURE_MESSAGE)).toBeTruthy()
      expect(shown()).toEqual(['Ravi', 'ravi@example.com', 'Acme', 'general', 'Hello'])
    })

    it('shows the server’s field errors in the page’s own words, with an unknown subject left unselected', () => {
      const invalid = { ...values, email: 'nope', subject: 'nonsense' }
      render(<ContactForm result={{ status: 'invalid', values: invalid, errors: { email: 'emailInvalid' } }} />)
      expect(fields().email.value).toBe('nope')
      expect(fields().email.getAttribute('aria-invalid')).toBe('true')
      expect(screen.getByText(MESSAGES.emailInvalid)).toBeTruthy()
      expect(fields().subject.value).toBe('')
      expect(status().textContent).toBe('')
    })
  })
})
