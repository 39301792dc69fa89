import { randomBytes } from 'node:crypto'
import type { Page, Request } from '@playwright/test'
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from '../../app/contact/status'
import {
  awayFromMinuteBoundary,
  enquiry,
  expect,
  fillForm,
  form,
  receivedFrom,
  serverFnAnswer,
  test,
  uniqueEmail,
} from '../support/contact'
import { expectStored } from '../support/enquiries'
import { gotoContactForm } from '../support/page'
import { SITE_ORIGIN, SITE_PORT, TEST_ACCESS_KEY } from '../support/servers'
import { stateDir } from '../support/site-server'

// Delivery finishes after the visitor's answer; waiting for it can take a while on a busy machine.
test.describe.configure({ timeout: 90_000 })

const sameOrigin = { Origin: SITE_ORIGIN }
const formHeaders = { ...sameOrigin, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }

/** Sends the form through the browser and returns the server function request it made. */
async function submitThroughBrowser(page: Page, values: ReturnType<typeof enquiry>): Promise<Request> {
  await gotoContactForm(page, '/contact')
  await fillForm(page, values)
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().includes('/_serverFn/') && r.method() === 'POST'),
    form(page).submit.click(),
  ])
  return request
}

/** A copy of a server function payload with one field of the message changed or added. */
function withField(payload: string, field: string, value: string): string {
  const body = JSON.parse(payload)
  const visit = (node: unknown): boolean => {
    if (!node || typeof node !== 'object') return false
    const p = (node as { p?: { k?: string[]; v?: unknown[] } }).p
    if (p?.k?.includes('name') && p.v) {
      const index = p.k.indexOf(field)
      if (index >= 0) p.v[index] = { t: 1, s: value }
      else {
        p.k.push(field)
        p.v.push({ t: 1, s: value })
      }
      return true
    }
    return Object.values(node).some(visit)
  }
  expect(visit(body)).toBe(true)
  return JSON.stringify(body)
}

test.describe('abuse and bad input', () => {
  test('the 6th message within a minute from one client gets 429 with Retry-After, the failure message, and is not forwarded', async ({
    page,
  }) => {
    test.setTimeout(75_000)
    await awayFromMinuteBoundary()
    const sent: string[] = []
    for (let i = 0; i < 5; i++) {
      const values = enquiry(`limit-${i}`)
      sent.push(values.email)
      const response = await page.request.post('/api/contact', { headers: formHeaders, form: { ...values } })
      expect(response.status()).toBe(200)
    }
    const sixth = enquiry('limit-6th')
    await gotoContactForm(page, '/contact')
    await fillForm(page, sixth)
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/_serverFn/') && r.request().method() === 'POST'),
      form(page).submit.click(),
    ])
    expect(answer.status()).toBe(429)
    expect(answer.headers()['retry-after']).toBe('60')
    await expect(form(page).status.getByText(FAILURE_MESSAGE)).toBeVisible()
    await expect(form(page).name).toHaveValue(sixth.name)

    for (const email of sent)
      await expect.poll(async () => (await receivedFrom(email)).length, { timeout: 30_000 }).toBe(1)
    expect(await receivedFrom(sixth.email)).toHaveLength(0)
  })

  test('another client is not limited by someone else’s messages', async ({ page, playwright }) => {
    test.setTimeout(75_000)
    await awayFromMinuteBoundary()
    const other = await playwright.request.newContext({
      baseURL: SITE_ORIGIN,
      extraHTTPHeaders: { 'CF-Connecting-IP': '2001:db8:ffff::7' },
    })
    for (let i = 0; i < 6; i++) {
      await other.post('/api/contact', { headers: formHeaders, form: { ...enquiry(`other-${i}`) } })
    }
    const last = await other.post('/api/contact', { headers: formHeaders, form: { ...enquiry('other-last') } })
    expect(last.status()).toBe(429)
    expect(last.headers()['retry-after']).toBe('60')
    expect(await last.json()).toEqual({ ok: false, error: 'rate_limited', message: FAILURE_MESSAGE })
    await other.dispose()

    const values = enquiry('not-limited')
    await gotoContactForm(page, '/contact')
    await fillForm(page, values)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
  })

  test('a burst from one /48, each post from another /64 of it, is limited at 10 a minute; nothing refused is forwarded', async ({
    request,
  }) => {
    test.setTimeout(75_000)
    await awayFromMinuteBoundary()
    // A network of its own (3fff::/20 is documentation space too), so no other test shares it.
    const [a, b] = [randomBytes(2).readUInt16BE(), randomBytes(2).readUInt16BE()]
    const network = `3fff:${a.toString(16)}:${b.toString(16)}`
    const sent: { email: string; status: number; retryAfter?: string }[] = []
    for (let i = 1; i <= 14; i++) {
      const values = enquiry(`slash48-${i}`)
      const answer = await request.post('/api/contact', {
        headers: { ...formHeaders, 'CF-Connecting-IP': `${network}:${i.toString(16)}::1` },
        form: { ...values },
      })
      sent.push({ email: values.email, status: answer.status(), retryAfter: answer.headers()['retry-after'] })
    }
    expect(sent.map((post) => post.status)).toEqual([...Array(10).fill(200), ...Array(4).fill(429)])
    expect(sent.slice(10).every((post) => post.retryAfter === '60')).toBe(true)
    for (const { email } of sent.slice(0, 10))
      await expect.poll(async () => (await receivedFrom(email)).length, { timeout: 30_000 }).toBe(1)
    for (const { email } of sent.slice(10)) expect(await receivedFrom(email)).toHaveLength(0)
    // The /48 next door is not limited by it.
    const neighbour = await request.post('/api/contact', {
      headers: { ...formHeaders, 'CF-Connecting-IP': `3fff:${a.toString(16)}:${(b ^ 1).toString(16)}:1::1` },
      form: { ...enquiry('slash48-neighbour') },
    })
    expect(neighbour.status()).toBe(200)
  })

  test('a real visitor sending the form in the middle of a flood from other addresses is stored and delivered', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000)
    await awayFromMinuteBoundary(15)
    // Three /48s, ten /64s each, three posts a /64: 90 posts, 10 at a time.
    const networks = Array.from(
      { length: 3 },
      () => `3fff:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`,
    )
    const posts = networks.flatMap((network) =>
      Array.from({ length: 30 }, (_, i) => ({
        address: `${network}:${(i % 10).toString(16)}::1`,
        values: enquiry(`flood-${i}`),
      })),
    )
    const statuses: number[] = []
    let next = 0
    const flood = Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < posts.length) {
          const post = posts[next++] as (typeof posts)[number]
          const answer = await request.post('/api/contact', {
            headers: { ...formHeaders, 'CF-Connecting-IP': post.address },
            form: { ...post.values },
          })
          statuses.push(answer.status())
        }
      }),
    )
    // The visitor, from an address of their own, once the flood is under way.
    await expect.poll(() => statuses.length, { timeout: 30_000 }).toBeGreaterThan(15)
    const visitor = enquiry('in-the-flood')
    await gotoContactForm(page, '/contact')
    await fillForm(page, visitor)
    await form(page).submit.click()
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    await flood

    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([])
    // At most 10 a minute from each /48 got through.
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(30)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(60)
    const row = await expectStored(stateDir(SITE_PORT), visitor.email, 'delivered')
    expect(row.attempts).toBe(1)
    expect(await receivedFrom(visitor.email)).toHaveLength(1)
  })

  test('a body over 32 KB is refused with 413 before anything reads it', async ({ page }) => {
    const values = enquiry('oversized', { message: 'x'.repeat(40 * 1024) })
    const response = await page.request.post('/api/contact', { headers: formHeaders, form: { ...values } })
    expect(response.status()).toBe(413)
    expect(await response.json()).toMatchObject({ ok: false, error: 'payload_too_large' })

    const request = await submitThroughBrowser(page, enquiry('oversized-fn'))
    const big = withField(request.postData() ?? '', 'message', 'y'.repeat(40 * 1024))
    const fn = await page.request.post(request.url(), {
      headers: { ...sameOrigin, 'Content-Type': 'application/json', 'x-tsr-serverFn': 'true' },
      data: big,
    })
    expect(fn.status()).toBe(413)
    expect(await receivedFrom(values.email)).toHaveLength(0)
  })

  test('the 32 KB cap holds for every method: a GET or OPTIONS with a large body gets 413, never read whole', async ({
    request,
  }) => {
    for (const method of ['GET', 'OPTIONS', 'PUT', 'DELETE']) {
      for (const path of ['/api/contact', '/api/health']) {
        const response = await request.fetch(path, { method, data: 'z'.repeat(40 * 1024), headers: sameOrigin })
        expect(response.status(), `${method} ${path}`).toBe(413)
        expect(await response.json()).toMatchObject({ ok: false, error: 'payload_too_large' })
      }
    }
    // A small body on a method the endpoint does not serve is the usual 405.
    const small = await request.fetch('/api/contact', { method: 'PUT', data: 'z', headers: sameOrigin })
    expect(small.status()).toBe(405)
  })

  test('a cross-site form post is refused with 403 and not forwarded', async ({ page }) => {
    const values = enquiry('cross-site')
    // A page on another site whose form posts to ours.
    await page.route('http://attacker.example/', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><form method="post" action="${SITE_ORIGIN}/api/contact">
          ${Object.entries(values)
            .map(([name, value]) => `<input name="${name}" value="${value.replace(/"/g, '&quot;')}">`)
            .join('')}
          <button>Win a prize</button></form>`,
      }),
    )
    await page.goto('http://attacker.example/')
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${SITE_ORIGIN}/api/contact`),
      page.getByRole('button', { name: 'Win a prize' }).click(),
    ])
    expect(response.status()).toBe(403)
    expect(response.request().headers().origin).toBe('http://attacker.example')
    expect(await response.json()).toMatchObject({ ok: false, error: 'cross_site_request' })

    const api = await page.request.post('/api/contact', {
      headers: { ...formHeaders, Origin: 'https://attacker.example' },
      form: { ...values },
    })
    expect(api.status()).toBe(403)
    expect(await receivedFrom(values.email)).toHaveLength(0)
  })

  test('invalid values sent to the server function get 400 with a reason per field, never forwarded', async ({
    page,
  }) => {
    const request = await submitThroughBrowser(page, enquiry('fn-valid'))
    await expect(form(page).status.getByText(SUCCESS_MESSAGE)).toBeVisible()
    const email = uniqueEmail('fn-invalid')
    const invalid = withField(withField(request.postData() ?? '', 'email', email), 'subject', 'sales')
    const response = await page.request.post(request.url(), {
      headers: { ...sameOrigin, 'Content-Type': 'application/json', 'x-tsr-serverFn': 'true' },
      data: invalid,
    })
    expect(response.status()).toBe(400)
    expect(await serverFnAnswer(response)).toEqual({
      ok: false,
      error: 'invalid_input',
      message: 'Some fields are missing or invalid.',
      fields: { subject: 'Please choose a subject.' },
    })
    expect(await receivedFrom(email)).toHaveLength(0)
  })

  test('an access_key sent by a client is ignored: the form service gets the server’s', async ({ page }) => {
    const request = await submitThroughBrowser(page, enquiry('fn-key'))
    expect(request.postData()).not.toContain('access_key')
    const email = uniqueEmail('client-key')
    // A new form fill (its own idempotency key), with an access key added by the client.
    const payload = withField(
      withField(withField(request.postData() ?? '', 'email', email), 'access_key', 'attacker-key'),
      'enquiry_key',
      `fresh-form-fill-${crypto.randomUUID()}`,
    )
    const response = await page.request.post(request.url(), {
      headers: { ...sameOrigin, 'Content-Type': 'application/json', 'x-tsr-serverFn': 'true' },
      data: payload,
    })
    expect(response.status()).toBe(200)
    await expect.poll(async () => (await receivedFrom(email)).length, { timeout: 30_000 }).toBe(1)
    const received = await receivedFrom(email)
    expect((received[0]?.json as { access_key?: string } | undefined)?.access_key).toBe(TEST_ACCESS_KEY)
    expect(received[0]?.raw).not.toContain('attacker-key')
  })

  test('the no-JavaScript endpoint refuses other content types (415), malformed bodies and invalid values (400)', async ({
    page,
  }) => {
    const values = enquiry('endpoint')
    const json = await page.request.post('/api/contact', {
      headers: { ...sameOrigin, 'Content-Type': 'application/json' },
      data: JSON.stringify(values),
    })
    expect(json.status()).toBe(415)
    expect(await json.json()).toMatchObject({ error: 'unsupported_media_type' })

    const malformed = await page.request.post('/api/contact', {
      headers: { ...sameOrigin, 'Content-Type': 'multipart/form-data; boundary=x' },
      data: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\ntruncated',
    })
    expect(malformed.status()).toBe(400)
    expect(await malformed.json()).toMatchObject({ error: 'malformed_body' })

    const invalid = await page.request.post('/api/contact', {
      headers: formHeaders,
      form: { ...values, email: 'not-an-address' },
    })
    expect(invalid.status()).toBe(400)
    expect(await invalid.json()).toMatchObject({ error: 'invalid_input', fields: { email: expect.any(String) } })

    const get = await page.request.get('/api/contact')
    expect(get.status()).toBe(405)
    expect(await receivedFrom(values.email)).toHaveLength(0)
  })
})
