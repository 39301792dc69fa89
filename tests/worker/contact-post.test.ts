// The contact form's two doors as HTTP: the post without JavaScript and the form's server function.
import { describe, expect, test } from 'vitest'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { enquiry, uniqueEmail } from '../support/values'
import { siteUnderTest, standInsForFile, TEST_ACCESS_KEY } from './support/fixtures'
import { parseHtml, textOf } from './support/html'
import { Cookies, follow, postContact, postForm, serverFnAnswer, submitContact } from './support/http'
import { clientAddress } from './support/site'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.production() }))

/** Waits until the form service has received `count` posts from `email` (delivery follows the answer). */
const delivered = (email: string, count = 1) => expect.poll(() => stand.forms.from(email).length).toBe(count)
const storedFrom = (email: string) =>
  worker.sql<{ id: string; status: string; attempts: number }>(
    'SELECT id, status, attempts FROM enquiries WHERE email = ?',
    email,
  )

describe('the post without JavaScript', () => {
  test('a message: 303 to /contact with a one-time outcome cookie, the page shows the success, stored and forwarded once', async () => {
    const values = enquiry('nojs-ok', { subject: 'website', message: 'Line one\nLine two — ✓' })
    const post = await postForm(worker, '/api/contact', { ...values, enquiry_key: crypto.randomUUID() })
    expect(post.status).toBe(303)
    expect(post.headers.get('location')).toBe('/contact#contact-status')
    const outcomeCookie = post.headers.get('set-cookie') ?? ''
    expect(outcomeCookie).toMatch(/^contact_outcome_0=.*; Path=\/contact; Max-Age=120; HttpOnly; SameSite=Strict/)

    const cookies = new Cookies()
    const page = await follow(worker, post, cookies)
    expect(page.headers.get('cache-control')).toBe('no-store')
    expect(page.headers.get('set-cookie')).toMatch(/^contact_outcome_0=; Path=\/contact; Max-Age=0/)
    const document = parseHtml(await page.text())
    expect(textOf(document.querySelector('#contact-status'))).toContain(SUCCESS_MESSAGE)
    for (const field of ['name', 'email', 'company', 'message'])
      expect(document.querySelector(`[name="${field}"]`)?.getAttribute('value') ?? '', field).toBe('')

    await delivered(values.email)
    expect(stand.forms.from(values.email)[0]?.json).toEqual({ ...values, access_key: TEST_ACCESS_KEY })
    expect(await storedFrom(values.email)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })])

    // The outcome shows once: the page loaded again is the plain form.
    const again = parseHtml(await (await worker.fetch('/contact', { headers: cookies.header() })).text())
    expect(textOf(again.querySelector('#contact-status'))).toBe('')
  })

  test('invalid input comes back in the form, each message by its field, the values kept, and nothing is sent', async () => {
    // Passes a browser's own checks, not the server's.
    const values = enquiry('nojs-invalid', { email: `${'l'.repeat(250)}@example.com`, name: '   ' })
    const post = await postForm(worker, '/api/contact', { ...values })
    expect(post.status).toBe(303)
    const document = parseHtml(await (await follow(worker, post)).text())
    const name = document.querySelector('[name="name"]')
    expect(name?.getAttribute('aria-invalid')).toBe('true')
    const describedBy = (field: Element | null) =>
      (field?.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => textOf(document.getElementById(id)))
        .join(' ')
    expect(describedBy(name)).toContain('Please enter your name.')
    const email = document.querySelector('[name="email"]')
    expect(describedBy(email)).toContain('Email addresses can be at most 254 characters.')
    expect(email?.getAttribute('value')).toBe(values.email)
    expect(document.querySelector('[name="message"]')?.textContent).toBe(values.message)
    expect(textOf(document.querySelector('#contact-status'))).toBe('')
    expect(stand.forms.from(values.email)).toHaveLength(0)
    expect(await storedFrom(values.email)).toEqual([])
  })

  test('the honeypot: a bot filling every field is sent to the success message, and nothing is stored or forwarded', async () => {
    const values = enquiry('nojs-bot')
    const post = await postForm(worker, '/api/contact', { ...values, website: 'https://cheap-pills.example' })
    expect(post.status).toBe(303)
    const document = parseHtml(await (await follow(worker, post)).text())
    expect(textOf(document.querySelector('#contact-status'))).toContain(SUCCESS_MESSAGE)
    expect(await storedFrom(values.email)).toEqual([])
    expect(stand.forms.from(values.email)).toHaveLength(0)
  })

  test('the subject is preselected from ?subject= on the server-rendered page; an unknown one is not', async () => {
    const selected = async (path: string) => {
      const response = await worker.fetch(path)
      expect(response.status, path).toBe(200)
      return (
        parseHtml(await response.text())
          .querySelector('select[name="subject"] option[selected]')
          ?.getAttribute('value') ?? ''
      )
    }
    expect(await selected('/contact?subject=automation')).toBe('automation')
    expect(await selected('/contact?subject=sales')).toBe('')
  })

  test('the same form posted twice (a double click, or Back and resubmit) is one enquiry, delivered once', async () => {
    const values = enquiry('twice-nojs')
    const page = parseHtml(await (await worker.fetch('/contact')).text())
    const key = page.querySelector('input[name="enquiry_key"]')?.getAttribute('value') ?? ''
    expect(key).toMatch(/^[\w-]{16,64}$/)
    const ip = clientAddress()
    for (let i = 0; i < 2; i++) {
      const post = await postForm(worker, '/api/contact', { ...values, enquiry_key: key }, { ip })
      expect(post.status).toBe(303)
    }
    await delivered(values.email)
    expect(await storedFrom(values.email)).toHaveLength(1)
    await worker.cron()
    expect(stand.forms.from(values.email)).toHaveLength(1)
    // A fresh page is a fresh form fill: its key differs.
    const next = parseHtml(await (await worker.fetch('/contact')).text())
    expect(next.querySelector('input[name="enquiry_key"]')?.getAttribute('value')).not.toBe(key)
  })

  test('other content types (415), malformed bodies and invalid values (400) and a GET (405) are refused', async () => {
    const values = enquiry('endpoint')
    const json = await worker.fetch('/api/contact', {
      method: 'POST',
      headers: { Origin: worker.origin, 'Content-Type': 'application/json' },
      body: JSON.stringify(values),
    })
    expect(json.status).toBe(415)
    expect(await json.json()).toMatchObject({ error: 'unsupported_media_type' })

    const malformed = await worker.fetch('/api/contact', {
      method: 'POST',
      headers: { Origin: worker.origin, 'Content-Type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\ntruncated',
    })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ error: 'malformed_body' })

    const invalid = await postContact(worker, { ...values, email: 'not-an-address' })
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toMatchObject({ error: 'invalid_input', fields: { email: expect.any(String) } })

    const get = await worker.fetch('/api/contact')
    expect(get.status).toBe(405)
    expect(stand.forms.from(values.email)).toHaveLength(0)
    expect(await storedFrom(values.email)).toEqual([])
  })
})

describe('what is refused before anything is read', () => {
  test.each([
    ['from another site', 'http://attacker.example'],
    ['without Origin, Sec-Fetch-Site or Referer', null],
  ])('a post %s gets 403 and is not stored or forwarded, on both doors', async (_, origin) => {
    const values = enquiry('cross-site')
    const api = await postForm(worker, '/api/contact', { ...values }, { origin })
    expect(api.status).toBe(403)
    expect(await api.json()).toMatchObject({ ok: false, error: 'cross_site_request' })
    expect((await postContact(worker, values, { origin })).status).toBe(403)
    expect((await submitContact(worker, values, { origin })).status).toBe(403)
    expect(stand.forms.from(values.email)).toHaveLength(0)
    expect(await storedFrom(values.email)).toEqual([])
  })

  test('a body over 32 KB is refused with 413 before anything reads it, on both doors', async () => {
    const values = enquiry('oversized', { message: 'x'.repeat(40 * 1024) })
    const response = await postContact(worker, values)
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ ok: false, error: 'payload_too_large' })
    const fn = await submitContact(worker, { ...values, message: 'y'.repeat(40 * 1024) })
    expect(fn.status).toBe(413)
    expect(stand.forms.from(values.email)).toHaveLength(0)
    expect(await storedFrom(values.email)).toEqual([])
  })

  test('the 32 KB cap holds for every method: a GET or OPTIONS with a large body gets 413, never read whole', async () => {
    for (const method of ['GET', 'OPTIONS', 'PUT', 'DELETE']) {
      for (const path of ['/api/contact', '/api/health']) {
        // Sent on a socket of its own: fetch() refuses to send a GET with a body.
        const response = await worker.raw(method, path, 'z'.repeat(40 * 1024))
        expect(response.status, `${method} ${path}`).toBe(413)
        expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: 'payload_too_large' })
      }
    }
    // A small body on a method the endpoint does not serve is the usual 405.
    const small = await worker.fetch('/api/contact', { method: 'PUT', body: 'z', headers: { Origin: worker.origin } })
    expect(small.status).toBe(405)
  })
})

describe('the server function the form calls', () => {
  test('a message: stored, then delivered once with the server’s key', async () => {
    const values = enquiry('fn-ok', { name: 'శ్రీనివాస్ రావు', company: 'Zoë & Co' })
    const answer = await submitContact(worker, values)
    expect(answer.status).toBe(200)
    expect(await serverFnAnswer(answer)).toMatchObject({ ok: true })
    await delivered(values.email)
    const [received] = stand.forms.from(values.email)
    expect(received?.json).toEqual({ ...values, access_key: TEST_ACCESS_KEY })
    expect(received?.headers.accept).toBe('application/json')
    const row = () =>
      worker.sql(
        'SELECT name, company, message, subject, status, attempts FROM enquiries WHERE email = ?',
        values.email,
      )
    const { email: _, ...typed } = values
    await expect.poll(row).toEqual([{ ...typed, status: 'delivered', attempts: 1 }])
  })

  test('invalid values get 400 with a reason per field, never stored or forwarded', async () => {
    const email = uniqueEmail('fn-invalid')
    const response = await submitContact(worker, { ...enquiry('fn-invalid'), email, subject: 'sales' })
    expect(response.status).toBe(400)
    expect(await serverFnAnswer(response)).toEqual({
      ok: false,
      error: 'invalid_input',
      message: 'Some fields are missing or invalid.',
      fields: { subject: 'Please choose a subject.' },
    })
    expect(stand.forms.from(email)).toHaveLength(0)
    expect(await storedFrom(email)).toEqual([])
  })
})

test('/api/health answers 503, not ok, when the enquiries table lacks a column the ledger reads: a deploy whose migration broke the schema fails its smoke test', async () => {
  await worker.exec('ALTER TABLE enquiries RENAME COLUMN held_reason TO hold_reason')
  try {
    const answer = await worker.fetch('/api/health')
    expect(answer.status).toBe(503)
    expect(await answer.json()).toEqual({ ok: false, version: expect.stringMatching(/^[0-9a-f-]{36}$/) })
  } finally {
    await worker.exec('ALTER TABLE enquiries RENAME COLUMN hold_reason TO held_reason')
  }
  expect((await worker.fetch('/api/health')).status).toBe(200)
})

test('/api/health says only whether the site is up and which version answered: no delivery, secret or binding names, not cached', async () => {
  // The delivery set-up is for operators: the desk shows it (tests/worker/desk-list.test.ts).
  const answer = await worker.fetch('/api/health')
  expect(answer.status).toBe(200)
  expect(answer.headers.get('cache-control')).toBe('no-store')
  const body = await answer.text()
  expect(JSON.parse(body)).toEqual({ ok: true, version: expect.stringMatching(/^[0-9a-f-]{36}$/) })
  for (const word of [TEST_ACCESS_KEY, 'CONTACT_FORM_ACCESS_KEY', 'form-service', 'rateLimiter', 'missing'])
    expect(body).not.toContain(word)
  const post = await worker.fetch('/api/health', { method: 'POST', headers: { Origin: worker.origin } })
  expect(post.status).toBe(405)
  expect(post.headers.get('allow')).toBe('GET')
})
