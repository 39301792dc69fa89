import { readFileSync } from 'node:fs'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { site } from '../../app/site'
import { enquiry, expect, fillForm, form, receivedFrom, test } from '../support/contact'
import { expectStored, operatorCommand } from '../support/enquiries'
import { gotoContactForm } from '../support/page'
import { NO_KEY_SITE_ORIGIN, NO_KEY_SITE_PORT, PORT_BASE, SITE_ORIGIN, TEST_ACCESS_KEY } from '../support/servers'
import { lastEmailFile, type SiteServer, startSiteServer, stateDir } from '../support/site-server'

// Generous: these tests wait for deliveries and time-outs, and some run wrangler as an operator does.
test.describe.configure({ timeout: 150_000 })

test.describe('operations', () => {
  test('/api/health says only whether the site is up and which version answered: no delivery, secret or binding names, not cached', async ({
    request,
  }) => {
    // The delivery set-up is for operators: the inbox shows it (tests/e2e/inbox.spec.ts).
    for (const origin of [SITE_ORIGIN, NO_KEY_SITE_ORIGIN]) {
      const answer = await request.get(`${origin}/api/health`)
      expect(answer.status()).toBe(200)
      expect(answer.headers()['cache-control']).toBe('no-store')
      const body = await answer.text()
      // The version is the version_metadata binding's id: locally, one wrangler makes up at each start.
      expect(JSON.parse(body)).toEqual({ ok: true, version: expect.stringMatching(/^[0-9a-f-]{36}$/) })
      for (const word of [TEST_ACCESS_KEY, 'CONTACT_FORM_ACCESS_KEY', 'form-service', 'rateLimiter', 'missing'])
        expect(body).not.toContain(word)
    }
    const post = await request.post(`${SITE_ORIGIN}/api/health`, { headers: { Origin: SITE_ORIGIN } })
    expect(post.status()).toBe(405)
    expect(post.headers().allow).toBe('GET')
  })

  test('a fresh clone (no key) stores the enquiry: the visitor sees success, `npm run enquiries` lists and shows it', async ({
    page,
  }) => {
    const values = enquiry('fresh', { subject: 'voice-ai', message: 'Demo please.\nనమస్కారం' })
    await gotoContactForm(page, `${NO_KEY_SITE_ORIGIN}/contact`)
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()

    const persistTo = stateDir(NO_KEY_SITE_PORT)
    const row = await expectStored(persistTo, values.email, 'pending', 0)
    expect(row).toMatchObject({
      name: values.name,
      company: values.company,
      subject: 'voice-ai',
      message: values.message,
    })
    expect(row.id).toMatch(/^\d{8}-[\w-]{16}$/)
    expect(await receivedFrom(values.email)).toHaveLength(0)

    const list = await operatorCommand('--persist-to', persistTo, '--status', 'pending')
    expect(list).toContain(row.id)
    expect(list).toContain(`${values.name} <${values.email}>`)
    const shown = await operatorCommand('show', row.id, '--persist-to', persistTo)
    expect(shown).toContain(`Enquiry ${row.id}`)
    expect(shown).toContain('  నమస్కారం')
    expect(shown).toMatch(/Status: {3}pending/)
    const delivered = await operatorCommand('--persist-to', persistTo, '--status', 'delivered')
    expect(delivered).not.toContain(row.id)
  })
})

test.describe('the email delivery on a local server', () => {
  // A server configured for Cloudflare Email; wrangler simulates the send_email binding
  // by writing each message to an .eml file and logging its path.
  test.describe.configure({ mode: 'serial' })
  let server: SiteServer

  test.beforeAll(async () => {
    test.setTimeout(120_000)
    server = await startSiteServer('email', PORT_BASE + 2, {
      CONTACT_DELIVERY: 'email',
      CONTACT_EMAIL_FROM: 'website@aksharalabs.in',
    })
  })

  test.afterAll(() => server?.stop())

  test('sends the stored enquiry to the company inbox with Reply-To set to the visitor', async ({ page }) => {
    const origin = server.origin
    const values = enquiry('email', {
      name: 'Śrī Rāma',
      email: `o'brien-${Date.now()}@example.com`,
      subject: 'general',
      message: 'Hello by e-mail.\nBye.',
    })
    await gotoContactForm(page, `${origin}/contact`)
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    const row = await expectStored(stateDir(PORT_BASE + 2), values.email, 'delivered', 1)
    expect(row.deliveredBy).toBe('email')

    const path = await lastEmailFile(server)
    const raw = readFileSync(path, 'utf8')
    const [head = '', body = ''] = raw.split('\r\n\r\n')
    const header = (name: string) => head.match(new RegExp(`^${name}: (.*(?:\\r\\n .*)*)`, 'mi'))?.[1] ?? ''
    const decoded = (value: string) =>
      value
        .replace(/\?=\s+=\?/g, '?==?')
        .replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'))

    expect(header('From')).toBe('"Akshara Labs website" <website@aksharalabs.in>')
    expect(header('To')).toBe(`"${site.name}" <${site.email}>`)
    expect(decoded(header('Reply-To'))).toBe(`${values.name} <${values.email}>`)
    expect(decoded(header('Subject'))).toBe(`New enquiry: General Inquiry — ${values.name}`)
    const text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    expect(text).toContain(`Email:    ${values.email}`)
    expect(text).toContain(`Company:  ${values.company}`)
    expect(text).toContain(`Id:       ${row.id}`)
    expect(text).toContain('Hello by e-mail.\r\nBye.')
    expect(await receivedFrom(values.email)).toHaveLength(0)
  })
})
