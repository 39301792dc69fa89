/** The smoke checks of the contact form, with JavaScript and without (a second window whose scripts never run). */
import { expect, it } from 'vitest'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import type { EnginesSite } from './ports'
import {
  DESKTOP,
  documentMark,
  type EnginePage,
  type Enquiry,
  hydrated,
  markDocument,
  type SmokeContext,
  until,
} from './smoke'

/** What the stand-in form service received from one address. */
async function received(site: EnginesSite, email: string): Promise<{ json: unknown }[]> {
  const answer = await fetch(`${site.formService}/__requests?email=${encodeURIComponent(email)}`)
  return (await answer.json()) as { json: unknown }[]
}

async function deliveredOnce(site: EnginesSite, email: string): Promise<unknown> {
  const deadline = Date.now() + 30_000
  while ((await received(site, email)).length === 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 250))
  }
  const requests = await received(site, email)
  expect(requests, `what the form service received from ${email}`).toHaveLength(1)
  return requests[0]?.json
}

async function fillContactForm(page: EnginePage, values: Enquiry) {
  await page.type('#contact-form input[name="name"]', values.name)
  await page.type('#contact-form input[name="email"]', values.email)
  await page.type('#contact-form input[name="company"]', values.company)
  await page.select('#contact-form select[name="subject"]', values.subject)
  await page.type('#contact-form textarea[name="message"]', values.message)
}

const contactFields = (page: EnginePage) =>
  page.run(() =>
    ['name', 'email', 'company', 'subject', 'message'].map(
      (name) => (document.querySelector(`#contact-form [name="${name}"]`) as HTMLInputElement | null)?.value ?? null,
    ),
  )

export function contactChecks(s: SmokeContext) {
  it('sends the contact form with JavaScript: the success message, every field cleared, delivered once', async () => {
    await s.page.open(`${s.site.origin}/contact`)
    await hydrated(s.page)
    // The form's code comes on first use (DeferredContactForm): a press on it, as a visitor does.
    await s.page.click('#contact-form h2')
    await until(
      s.page,
      'the form is enhanced',
      () => document.querySelector('#contact-form form[novalidate]') !== null,
      [],
    )
    await markDocument(s.page)
    await fillContactForm(s.page, s.withScript)
    await s.page.click('#contact-form button[type="submit"]')

    await until(
      s.page,
      'the success message shows',
      (message: string) => document.getElementById('contact-status')?.textContent?.includes(message),
      [SUCCESS_MESSAGE],
    )
    expect(await contactFields(s.page)).toEqual(['', '', '', '', ''])
    expect(await documentMark(s.page), 'sent by the page, without a page load').toBe('this document')
    expect(await deliveredOnce(s.site, s.withScript.email)).toEqual({ ...s.withScript, access_key: s.site.formKey })
  })

  it('sends the contact form without JavaScript: a native post, its 303, then the success message', async () => {
    const plain = await s.engine.withoutJavaScript()
    try {
      await plain.resize(DESKTOP.width, DESKTOP.height)
      await plain.open(`${s.site.origin}/contact`)
      // The page's scripts did not run: the server's plain form, which the browser validates itself.
      expect(
        await plain.run(() => ({
          hydrated: document.documentElement.dataset.hydrated ?? null,
          enhanced: document.querySelector('#contact-form form')?.hasAttribute('novalidate') ?? null,
          action: document.querySelector('#contact-form form')?.getAttribute('action') ?? null,
        })),
      ).toEqual({ hydrated: null, enhanced: false, action: '/api/contact' })
      await fillContactForm(plain, s.withoutScript)
      await plain.click('#contact-form button[type="submit"]')

      await until(
        plain,
        'the page the post redirected to shows the success message',
        (message: string) =>
          location.pathname === '/contact' &&
          location.hash === '#contact-status' &&
          document.getElementById('contact-status')?.textContent?.includes(message),
        [SUCCESS_MESSAGE],
      )
      const arrival = await plain.run(() => {
        const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
        return { type: entry.type, redirects: entry.redirectCount }
      })
      // The POST answered 303, which the browser followed to /contact.
      expect(arrival).toEqual({ type: 'navigate', redirects: 1 })
      expect(await contactFields(plain)).toEqual(['', '', '', '', ''])
      expect(await plain.run(() => document.documentElement.dataset.hydrated ?? null)).toBeNull()
      expect(await deliveredOnce(s.site, s.withoutScript.email)).toEqual({
        ...s.withoutScript,
        access_key: s.site.formKey,
      })
    } finally {
      await plain.close()
    }
  })
}
