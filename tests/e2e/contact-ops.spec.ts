import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { site } from '../../app/site'
import { enquiry, expect, fillForm, form, receivedFrom, setScenario, test } from '../support/contact'
import { gotoHydrated } from '../support/page'
import { OUTBOX_SITE_ORIGIN, OUTBOX_SITE_PORT, PORT_BASE, SITE_ORIGIN, TEST_ACCESS_KEY } from '../support/servers'
import { type SiteServer, startSiteServer } from '../support/site-server'

const run = promisify(execFile)

interface OutboxEntry {
  key: string
  name: string
  email: string
  company: string
  subject: string
  subjectLabel: string
  message: string
  keptBecause: string
}

/** The local outbox of a test server, read the way an operator does: `npm run outbox`. */
async function outbox(port: number): Promise<OutboxEntry[]> {
  const { stdout } = await run('npm', [
    'run',
    '--silent',
    'outbox',
    '--',
    '--json',
    '--persist-to',
    `.wrangler/e2e-${PORT_BASE}/state-${port}`,
  ])
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as OutboxEntry)
}

test.describe('operations', () => {
  test('/api/health reports the delivery in effect, without the key, and is not cached', async ({ request }) => {
    const configured = await request.get(`${SITE_ORIGIN}/api/health`)
    expect(configured.status()).toBe(200)
    expect(configured.headers()['cache-control']).toBe('no-store')
    const body = await configured.text()
    expect(JSON.parse(body)).toMatchObject({ ok: true, delivery: 'form-service', configured: true, missing: [] })
    expect(body).not.toContain(TEST_ACCESS_KEY)
    const post = await request.post(`${SITE_ORIGIN}/api/health`, { headers: { Origin: SITE_ORIGIN } })
    expect(post.status()).toBe(405)
    expect(post.headers().allow).toBe('GET')

    const fresh = await request.get(`${OUTBOX_SITE_ORIGIN}/api/health`)
    expect(fresh.status()).toBe(200)
    expect(fresh.headers()['cache-control']).toBe('no-store')
    expect(await fresh.json()).toMatchObject({
      ok: true,
      delivery: 'outbox',
      configured: false,
      requested: 'form-service',
      missing: ['CONTACT_FORM_ACCESS_KEY'],
    })
  })

  test('without a key the whole flow works: the visitor sees success and the enquiry is in the outbox', async ({
    page,
  }) => {
    const values = enquiry('outbox', { subject: 'voice-ai', message: 'Demo please.\nనమస్కారం' })
    await gotoHydrated(page, `${OUTBOX_SITE_ORIGIN}/contact`)
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    expect(await receivedFrom(values.email)).toHaveLength(0)

    const entry = (await outbox(OUTBOX_SITE_PORT)).find((e) => e.email === values.email)
    expect(entry).toMatchObject({
      name: values.name,
      company: values.company,
      subject: 'voice-ai',
      subjectLabel: `${site.product.name} Voice Assistant Inquiry`,
      message: values.message,
    })
    expect(entry?.key).toMatch(/^enquiry:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z-[0-9a-f]{12}$/)
    expect(entry?.keptBecause).toContain('CONTACT_FORM_ACCESS_KEY')
  })

  test('a failed delivery is also kept in the outbox for the operator', async ({ page }) => {
    const values = enquiry('kept')
    await setScenario(values.email, { kind: 'status', status: 503 })
    await gotoHydrated(page, '/contact')
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText('Something went wrong. Please try again.')).toBeVisible()
    const entry = (await outbox(PORT_BASE)).find((e) => e.email === values.email)
    expect(entry?.keptBecause).toBe('form-service failed: upstream_status')
    expect(entry?.message).toBe(values.message)
  })
})

test.describe('the email delivery on a local server', () => {
  // A third server, configured for Cloudflare Email; wrangler simulates the send_email binding
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

  test('sends the enquiry to the company inbox with Reply-To set to the visitor', async ({ page }) => {
    const origin = server.origin
    const health = await (await fetch(`${origin}/api/health`)).json()
    expect(health).toMatchObject({ ok: true, delivery: 'email', configured: true })

    const values = enquiry('email', { name: 'Śrī Rāma', subject: 'general', message: 'Hello by e-mail.\nBye.' })
    await gotoHydrated(page, `${origin}/contact`)
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()

    let path = ''
    await expect
      .poll(
        () => {
          path = [...server.output().matchAll(/Email: (\S+\.eml)/g)].at(-1)?.[1] ?? ''
          return path
        },
        { timeout: 15_000 },
      )
      .not.toBe('')
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
    expect(text).toContain('Hello by e-mail.\r\nBye.')
    expect(await receivedFrom(values.email)).toHaveLength(0)
  })
})
