import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ContactForm } from '~/components/contact/ContactForm'
import { DRAFT_KEY } from '~/contact/draft'
import { IDEMPOTENCY_KEY_FIELD, IDEMPOTENCY_KEY_PATTERN } from '~/contact/fields'
import { MESSAGES } from '~/contact/schema'
import { type ContactReplyBody, FAILURE_MESSAGE, SUCCESS_MESSAGE } from '~/contact/status'
import { TURNSTILE_FIELD, TURNSTILE_SCRIPT_URL } from '~/contact/turnstile'
import { EMPTY_VALUES } from '~/ledger'
import { VISIT_KEY } from '~/lib/visit-source'

// The server call, mocked at the module boundary: the form and its client code are real.
const submitContact = vi.hoisted(() => vi.fn())
const getTurnstileSiteKey = vi.hoisted(() => vi.fn())
vi.mock('~/contact/contact.functions', () => ({ submitContact, getTurnstileSiteKey }))
// The route loader's server half reads the Worker's env (only workerd has it); the form never runs it.
vi.mock('~/server/runtime.server', () => ({ workerRuntime: vi.fn(), workerEnv: vi.fn() }))

// What the server function resolves with, as Start's client hands it over: the typed answer.
const okAnswer = (): ContactReplyBody => ({ ok: true })
const failedAnswer = (): ContactReplyBody => ({ ok: false, error: 'not_stored', message: FAILURE_MESSAGE })
const FORM_KEY = 'form-fill-key-0123456789'

/** The hidden field that carries this form fill's idempotency key. */
const keyField = (container: HTMLElement) =>
  container.querySelector(`input[name="${IDEMPOTENCY_KEY_FIELD}"]`) as HTMLInputElement
/** The enquiry_key of each call to the server function so far. */
const sentKeys = () => submitContact.mock.calls.map((call) => call[0]?.data?.[IDEMPOTENCY_KEY_FIELD])

/** A promise the test settles when it wants: the request in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const fields = () => ({
  name: screen.getByLabelText('Full Name *') as HTMLInputElement,
  email: screen.getByLabelText('Email Address *') as HTMLInputElement,
  company: screen.getByLabelText('Company Name') as HTMLInputElement,
  subject: screen.getByLabelText('Subject *') as unknown as HTMLSelectElement,
  message: screen.getByLabelText('Message *') as HTMLTextAreaElement,
})
const submitButton = () => screen.getByRole('button', { name: /send message|sending/i })
const status = () => screen.getByRole('status')

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  const f = fields()
  await user.type(f.name, 'Ravi Kumar')
  await user.type(f.email, 'ravi@example.com')
  await user.type(f.company, 'Godavari Foods')
  await user.selectOptions(screen.getByLabelText('Subject *'), 'automation')
  await user.type(f.message, 'Please call me.')
}

beforeEach(() => {
  submitContact.mockReset()
  getTurnstileSiteKey.mockReset()
})

describe('ContactForm', () => {
  it('has the spec labels, each tied to its control', () => {
    render(<ContactForm />)
    expect(screen.getByRole('heading', { name: 'Send us a message' })).toBeTruthy()
    const f = fields()
    expect(f.name.tagName).toBe('INPUT')
    expect(f.name.name).toBe('name')
    expect(f.name.required).toBe(true)
    expect(f.email.type).toBe('email')
    expect(f.email.required).toBe(true)
    expect(f.company.required).toBe(false)
    expect(f.subject.tagName).toBe('SELECT')
    expect(f.message.tagName).toBe('TEXTAREA')
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

  it('is a plain form posting to /api/contact when no script runs, and validates itself once mounted', () => {
    const { container } = render(<ContactForm />)
    const form = container.querySelector('form') as HTMLFormElement
    expect(form.getAttribute('method')).toBe('post')
    expect(form.getAttribute('action')).toBe('/api/contact')
    expect(form.noValidate).toBe(true)
  })

  it('uses no inline styles', () => {
    const { container } = render(<ContactForm />)
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
      expect(document.getElementById(f.name.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        MESSAGES.nameRequired,
      )
      expect(document.getElementById(f.email.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        MESSAGES.emailRequired,
      )
      expect(document.getElementById(f.subject.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        MESSAGES.subjectRequired,
      )
      expect(document.getElementById(f.message.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        MESSAGES.messageRequired,
      )
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

    it('treats whitespace as empty', async () => {
      const user = userEvent.setup()
      render(<ContactForm />)
      await user.type(fields().name, '    ')
      await user.click(submitButton())
      expect(screen.getByText(MESSAGES.nameRequired)).toBeTruthy()
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

  describe('sending', () => {
    it('sends the trimmed message, the honeypot and the form fill’s key, never an access key', async () => {
      submitContact.mockResolvedValue(okAnswer())
      const user = userEvent.setup()
      render(<ContactForm idempotencyKey={FORM_KEY} />)
      await fillValid(user)
      await user.type(fields().name, '  ')
      await user.click(submitButton())
      await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(1))
      expect(submitContact.mock.calls[0]?.[0]).toEqual({
        data: {
          name: 'Ravi Kumar',
          email: 'ravi@example.com',
          company: 'Godavari Foods',
          subject: 'automation',
          message: 'Please call me.',
          website: '',
          enquiry_key: FORM_KEY,
          // The page the form was sent from (no visit kept in this tab: nothing else of its source).
          source_page: '/',
        },
      })
    })

    it('sends where the visit came from as the tab kept it, with the page the form is on', async () => {
      submitContact.mockResolvedValue(okAnswer())
      sessionStorage.setItem(
        VISIT_KEY,
        JSON.stringify({
          source_first_page: '/services/devops',
          source_referrer: 'www.google.com',
          utm_source: 'news',
        }),
      )
      const user = userEvent.setup()
      // The server's view of the page (no JavaScript) is only the fallback: the tab's record wins.
      render(
        <ContactForm idempotencyKey={FORM_KEY} source={{ source_page: '/contact', source_first_page: '/contact' }} />,
      )
      await fillValid(user)
      await user.click(submitButton())
      await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(1))
      expect(submitContact.mock.calls[0]?.[0]?.data).toMatchObject({
        source_page: '/',
        source_first_page: '/services/devops',
        source_referrer: 'www.google.com',
        utm_source: 'news',
      })
      sessionStorage.removeItem(VISIT_KEY)
    })

    it('carries the server’s view of the source in hidden fields, for a post without JavaScript', () => {
      const { container } = render(
        <ContactForm source={{ source_page: '/contact', source_referrer: 'partner.example', utm_medium: 'social' }} />,
      )
      const hidden = Object.fromEntries(
        [...container.querySelectorAll<HTMLInputElement>('input[type="hidden"]')].map((input) => [
          input.name,
          input.value,
        ]),
      )
      expect(hidden).toMatchObject({
        source_page: '/contact',
        source_referrer: 'partner.example',
        utm_medium: 'social',
      })
    })

    it('reads "Sending..." and is disabled while sending; a second click sends nothing', async () => {
      const request = deferred<ContactReplyBody>()
      submitContact.mockReturnValue(request.promise)
      const user = userEvent.setup()
      const { container } = render(<ContactForm />)
      await fillValid(user)
      await user.click(submitButton())

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
      const user = userEvent.setup()
      render(<ContactForm defaultSubject="general" />)
      await fillValid(user)
      await user.click(submitButton())

      await waitFor(() => expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy())
      const message = within(status()).getByText(SUCCESS_MESSAGE).parentElement as HTMLElement
      expect(message.className).toContain('text-success')
      expect(message.querySelector('svg')).toBeTruthy()
      expect(status().getAttribute('aria-live')).toBe('polite')
      const f = fields()
      expect([f.name.value, f.email.value, f.company.value, f.subject.value, f.message.value]).toEqual([
        '',
        '',
        '',
        '',
        '',
      ])
    })

    const failures: [string, () => unknown][] = [
      ['an enquiry not stored (503)', () => Promise.resolve(failedAnswer())],
      [
        'the rate limit (429)',
        () =>
          Promise.resolve({ ok: false, error: 'rate_limited', message: FAILURE_MESSAGE } satisfies ContactReplyBody),
      ],
      ['an answer that is not ok', () => Promise.resolve({ ok: false })],
      ['a page that is not JSON (handed over as the raw Response)', () => Promise.resolve(new Response('<html>'))],
      ['a refusal thrown as a Response (400)', () => Promise.reject(Response.json({ ok: false }, { status: 400 }))],
      ['a JSON answer from middleware (413)', () => Promise.resolve({ ok: false, error: 'payload_too_large' })],
      ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
    ]
    for (const [what, answer] of failures) {
      it(`on ${what} shows the red message and keeps every field`, async () => {
        submitContact.mockImplementation(answer)
        const user = userEvent.setup()
        render(<ContactForm />)
        await fillValid(user)
        await user.click(submitButton())

        await waitFor(() => expect(within(status()).getByText(FAILURE_MESSAGE)).toBeTruthy())
        const message = within(status()).getByText(FAILURE_MESSAGE).parentElement as HTMLElement
        expect(message.className).toContain('text-danger')
        expect(message.querySelector('svg')).toBeTruthy()
        expect(within(status()).queryByText(SUCCESS_MESSAGE)).toBeNull()
        const f = fields()
        expect([f.name.value, f.email.value, f.company.value, f.subject.value, f.message.value]).toEqual([
          'Ravi Kumar',
          'ravi@example.com',
          'Godavari Foods',
          'automation',
          'Please call me.',
        ])
      })
    }

    it('clears the status message when a new submit starts', async () => {
      submitContact.mockResolvedValueOnce(failedAnswer())
      const user = userEvent.setup()
      render(<ContactForm />)
      await fillValid(user)
      await user.click(submitButton())
      await waitFor(() => expect(within(status()).getByText(FAILURE_MESSAGE)).toBeTruthy())

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
      const user = userEvent.setup()
      render(<ContactForm />)
      await fillValid(user)
      await user.click(submitButton())
      await waitFor(() => expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy())
      await user.click(submitButton())
      expect(status().textContent).toBe('')
      expect(submitContact).toHaveBeenCalledTimes(1)
    })

    it('passes a filled honeypot on to the server, which decides', async () => {
      submitContact.mockResolvedValue(okAnswer())
      const user = userEvent.setup()
      const { container } = render(<ContactForm />)
      await fillValid(user)
      fireEvent.change(container.querySelector('input[name="website"]') as HTMLInputElement, {
        target: { value: 'http://spam.example' },
      })
      await user.click(submitButton())
      await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(1))
      expect(submitContact.mock.calls[0]?.[0].data.website).toBe('http://spam.example')
    })
  })

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
      expect(sentKeys()).toEqual([FORM_KEY, next])
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
      expect(sentKeys()).toEqual([FORM_KEY, FORM_KEY, FORM_KEY])
      expect(keyField(container).value).not.toBe(FORM_KEY)
    })
  })

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

describe('Turnstile on the form', () => {
  const SITE_KEY = '1x00000000000000000000AA'
  const scripts = () => [...document.querySelectorAll('script')].filter((el) => el.src === TURNSTILE_SCRIPT_URL)

  /** Turnstile's browser API as the form uses it; `solve` plays the widget handing over a token. */
  function standInTurnstile() {
    let options: { callback: (token: string) => void; sitekey: string; action: string } | undefined
    const api = {
      render: vi.fn((_el: HTMLElement, opts: typeof options) => {
        options = opts
        return 'widget-1'
      }),
      reset: vi.fn(),
    }
    return {
      api,
      options: () => options,
      /** The script arrives: window.turnstile exists, and the script's load event fires. */
      load() {
        window.turnstile = api as unknown as Window['turnstile']
        for (const el of scripts()) el.dispatchEvent(new Event('load'))
      },
    }
  }

  beforeEach(() => {
    for (const el of scripts()) el.remove()
    delete window.turnstile
  })

  it('with Turnstile off, focusing the form loads nothing and asks nothing', async () => {
    const user = userEvent.setup()
    submitContact.mockResolvedValue(okAnswer())
    render(<ContactForm turnstileSiteKey={null} />)
    await fillValid(user)
    await user.click(submitButton())
    await waitFor(() => expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy())
    expect(scripts()).toHaveLength(0)
    expect(getTurnstileSiteKey).not.toHaveBeenCalled()
    expect(submitContact.mock.calls[0]?.[0]?.data?.[TURNSTILE_FIELD]).toBeUndefined()
  })

  it('loads the widget on the first focus, not before, and sends its token; after sending, the widget makes a new one', async () => {
    const user = userEvent.setup()
    const turnstile = standInTurnstile()
    submitContact.mockResolvedValue(okAnswer())
    render(<ContactForm turnstileSiteKey={SITE_KEY} />)
    expect(scripts()).toHaveLength(0)

    await user.click(fields().name)
    await waitFor(() => expect(scripts()).toHaveLength(1))
    act(() => turnstile.load())
    await waitFor(() => expect(turnstile.api.render).toHaveBeenCalledTimes(1))
    expect(turnstile.options()).toMatchObject({ sitekey: SITE_KEY, action: 'contact' })
    act(() => turnstile.options()?.callback('token-from-widget'))

    await fillValid(user)
    await user.click(submitButton())
    await waitFor(() => expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy())
    expect(submitContact.mock.calls[0]?.[0]?.data?.[TURNSTILE_FIELD]).toBe('token-from-widget')
    expect(turnstile.api.reset).toHaveBeenCalledWith('widget-1')
    // Focusing again loads nothing more.
    await user.click(fields().name)
    expect(scripts()).toHaveLength(1)
  })

  it('a send while the widget is still working waits for its token', async () => {
    const user = userEvent.setup()
    const turnstile = standInTurnstile()
    submitContact.mockResolvedValue(okAnswer())
    render(<ContactForm turnstileSiteKey={SITE_KEY} />)
    await fillValid(user)
    act(() => turnstile.load())
    await waitFor(() => expect(turnstile.api.render).toHaveBeenCalled())
    await user.click(submitButton())
    expect(submitContact).not.toHaveBeenCalled()
    act(() => turnstile.options()?.callback('late-token'))
    await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(1))
    expect(submitContact.mock.calls[0]?.[0]?.data?.[TURNSTILE_FIELD]).toBe('late-token')
  })

  it('when the script cannot load, the message is still sent (without a token: the server holds it)', async () => {
    const user = userEvent.setup()
    submitContact.mockResolvedValue(okAnswer())
    render(<ContactForm turnstileSiteKey={SITE_KEY} />)
    await user.click(fields().name)
    await waitFor(() => expect(scripts()).toHaveLength(1))
    act(() => {
      for (const el of scripts()) el.dispatchEvent(new Event('error'))
    })
    await fillValid(user)
    await user.click(submitButton())
    await waitFor(() => expect(within(status()).getByText(SUCCESS_MESSAGE)).toBeTruthy())
    expect(submitContact.mock.calls[0]?.[0]?.data?.[TURNSTILE_FIELD]).toBeUndefined()
  })

  it('reached by an in-site navigation (site key unknown), it asks the server on the first focus', async () => {
    const user = userEvent.setup()
    getTurnstileSiteKey.mockResolvedValue(SITE_KEY)
    render(<ContactForm />)
    expect(getTurnstileSiteKey).not.toHaveBeenCalled()
    await user.click(fields().name)
    await waitFor(() => expect(scripts()).toHaveLength(1))
    expect(getTurnstileSiteKey).toHaveBeenCalledTimes(1)
  })
})
