// Turnstile on the contact form: loaded on the first focus, its token sent, a send waiting for it.
import { act, render, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ContactForm } from '~/components/contact/ContactForm'
import { SUCCESS_MESSAGE } from '~/contact/status'
import { TURNSTILE_FIELD, TURNSTILE_SCRIPT_URL } from '~/contact/turnstile'
import { fields, fillValid, okAnswer, sendFilled, statusSays, submitButton } from '../support/contact-form-dom'
import { getTurnstileSiteKey, submitContact } from '../support/contact-form-server'

// The server calls are mocked at the module boundary (the loader's server half reads workerd's env).
vi.mock('~/contact/contact.functions', () => import('../support/contact-form-server'))
vi.mock('~/server/runtime.server', () => ({ workerRuntime: vi.fn(), workerEnv: vi.fn() }))

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
    submitContact.mockResolvedValue(okAnswer())
    await sendFilled(<ContactForm turnstileSiteKey={null} />)
    await statusSays(SUCCESS_MESSAGE)
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
    await statusSays(SUCCESS_MESSAGE)
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
    await statusSays(SUCCESS_MESSAGE)
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
