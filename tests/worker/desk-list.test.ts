// The desk's list and its CSV export as the Worker answers them, and its set-up's gaps; without a valid Access token every
// /admin page and action is 403, and a cross-site post is refused.
import { describe, expect, test } from 'vitest'
import { TEST_OPERATOR, TEST_OPERATOR_ID } from '../support/access-keys'
import { enquiry } from '../support/values'
import { deskUnderTest } from './support/desk'
import { siteUnderTest, TEST_ACCESS_KEY } from './support/fixtures'
import { parseHtml, textOf } from './support/html'
import { linkTo, postForm } from './support/http'

const { stand, worker, asOperator, page, rowsOf, sent, deskLines } = deskUnderTest()

describe('the list and the CSV', () => {
  test('newest first, never cached or indexed, the delivery set-up shown to operators on its own page, 25 a page (the search and filters: tests/unit/enquiries-ledger.test.ts)', async () => {
    const tag = crypto.randomUUID().slice(0, 8)
    const first = enquiry('desk-list', { name: `Asha ${tag}`, company: `Rao ${tag} Textiles` })
    const second = enquiry('desk-list', { name: `Bharat ${tag}`, message: `Please call.\nWe have 12 sites. ${tag}` })
    await sent(first)
    await sent(second)

    const { response, document } = await page(`/admin?q=${tag}`)
    expect(response.headers.get('cache-control')).toContain('no-store')
    expect(response.headers.get('x-robots-tag')).toContain('noindex')
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toMatch(/noindex/)
    expect(textOf(document.querySelector('h1'))).toBe('Enquiries')
    const names = (d: Document) => [...d.querySelectorAll('tbody tr td:nth-child(2)')].map(textOf)
    expect(names(document)).toEqual([second.name, first.name])
    // The desk's one line names only what is missing; the set-up has its own page.
    expect(textOf(document.querySelector('[data-testid="setup-gaps"]'))).toBe(
      'Set-up: no allow-list, nor a reason for the Access policy alone. See the set-up',
    )
    const setupPage = (await page('/admin/setup')).document
    expect(textOf(setupPage.querySelector('h1'))).toBe('Set-up')
    const setup = (id: string) => textOf(setupPage.querySelector(`[data-testid="${id}"]`))
    expect(setup('setup-delivery')).toBe('form-service')
    expect(setup('setup-missing')).toContain('nothing')
    expect(setup('setup-rate-limiter')).toBe('bound')
    expect(document.documentElement.outerHTML).not.toContain(TEST_ACCESS_KEY)
    expect(setupPage.documentElement.outerHTML).not.toContain(TEST_ACCESS_KEY)

    // The detail: the whole message and the delivery history, no retry for a delivered one.
    const detail = (await page(linkTo((await page(`/admin?q=${tag}`)).document, second.name))).document
    expect(detail.querySelector('[data-testid="message"]')?.textContent).toBe(second.message)
    const history = [...detail.querySelectorAll('table tr')].map(textOf)
    expect(history).toHaveLength(2)
    expect(history[1]).toContain('form-service')
    expect(history[1]).toContain('delivered')
    expect([...detail.querySelectorAll('button')].map(textOf)).not.toContain('Retry delivery now')

    // Paging: 25 a page, the search kept in the pager's links.
    const rows = Array.from(
      { length: 27 },
      (_, i) =>
        `('page-${i}', 'page-${i}', '2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z', 'Paged ${tag} ${i}', 'paged@example.com', '', 'general', 'x', 'handled')`,
    )
    await worker.exec(
      `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status) VALUES ${rows.join(', ')}`,
    )
    const html = await (await worker.fetch(`/admin?q=Paged%20${tag}`, { headers: await asOperator() })).text()
    expect(html).toContain('1–25 of 27')
    expect(html).toContain(`Paged ${tag} 26`)
    expect(html).not.toContain(`Paged ${tag} 1<`)
    expect(html).toContain('Page <!-- -->1<!-- --> of <!-- -->2')
    expect(html).toMatch(/<a href="\/admin\?[^"]*page=2[^"]*"[^>]*rel="next">Older<\/a>/)
    expect(html).not.toContain('rel="prev"')
    const page2 = await (await worker.fetch(`/admin?q=Paged%20${tag}&page=2`, { headers: await asOperator() })).text()
    expect(page2).toContain('26–27 of 27')
    expect(page2).toContain(`Paged ${tag} 1<`)
    expect(page2).toContain(`Paged ${tag} 0<`)
    expect(page2).toMatch(/<a href="\/admin\?[^"]*"[^>]*rel="prev">Newer<\/a>/)
    expect(page2).not.toContain('rel="next"')
  })

  test('the CSV export holds the current filter, as UTF-8 with formula cells neutralised (each rule: tests/unit/desk-csv)', async () => {
    const tag = crypto.randomUUID().slice(0, 8)
    const risky = enquiry('desk-csv', {
      name: `=cmd() ${tag}`,
      company: `@SUM(1) ${tag}`,
      message: 'నమస్కారం, "quoted"',
    })
    const other = enquiry('desk-csv', { name: `Plain ${tag}` })
    await sent(risky)
    await sent(other)

    const answer = await worker.fetch(`/admin/export.csv?q=${encodeURIComponent(`=cmd() ${tag}`)}`, {
      headers: await asOperator(),
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="enquiries-[\d-]+\.csv"$/)
    expect(answer.headers.get('cache-control')).toContain('no-store')
    const bytes = Buffer.from(await answer.arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const csv = bytes.subarray(3).toString('utf8')
    const lines = csv.split('\r\n')
    expect(lines[0]).toMatch(/^"ID","Received","Status","Name","E-mail","Company"/)
    expect(lines).toHaveLength(3)
    expect(lines[1]).toContain(`"'=cmd() ${tag}"`)
    expect(csv).not.toContain(other.name)

    // The operator by Access's ID for them, never by e-mail.
    await expect.poll(() => deskLines('export').at(-1)).toMatchObject({ operator: TEST_OPERATOR_ID, rows: 1 })
    expect(JSON.stringify(deskLines('export'))).not.toContain(TEST_OPERATOR)
  })
})

describe('Access: fails closed', () => {
  test('without a valid token every /admin page and every action answers 403, never 404, with nothing from the desk', async () => {
    const values = enquiry('desk-guard', { name: 'Guarded Person' })
    const row = await sent(values)
    // Each kind of bad token: tests/unit/access.
    const bad: [string, Record<string, string>][] = [
      ['no header', {}],
      ['wrong signature', { 'Cf-Access-Jwt-Assertion': await stand.keys.sign({ foreignKey: true }) }],
    ]
    const pages = [
      '/admin',
      '/admin/',
      `/admin/enquiries/${row.id}`,
      `/admin/erase/${row.id}`,
      '/admin/export.csv',
      '/admin/activity',
      '/admin/person',
      '/admin/sources',
      '/admin/setup',
      '/admin/no-such-page',
      '/Admin',
    ]
    for (const [label, headers] of bad) {
      for (const path of pages) {
        const answer = await worker.fetch(path, { headers })
        expect(answer.status, `${label} ${path}`).toBe(403)
        expect(answer.headers.get('cache-control'), `${label} ${path}`).toContain('no-store')
        const body = await answer.text()
        expect(body).not.toContain(values.name)
        expect(body).not.toContain(values.email)
      }
      for (const action of ['handled', 'retry', 'release', 'erase']) {
        const answer = await postForm(worker, '/admin/actions', { action, id: row.id, confirm: row.id }, { headers })
        expect(answer.status, `${label} ${action}`).toBe(403)
      }
    }
    expect(await rowsOf(values.email)).toEqual([
      expect.objectContaining({ id: row.id, status: 'delivered', handledBy: null }),
    ])

    // A valid token: the pages open, and a path that does not exist is 404.
    expect((await worker.fetch('/admin', { headers: await asOperator() })).status).toBe(200)
    expect((await worker.fetch('/admin/no-such-page', { headers: await asOperator() })).status).toBe(404)

    await expect.poll(() => worker.logs().filter((line) => line.event === 'admin_denied').length).toBeGreaterThan(0)
    const denied = worker.logs().filter((line) => line.event === 'admin_denied')
    expect(JSON.stringify(denied)).not.toMatch(/eyJ[\w-]+\.[\w-]+\./)
  })

  test('a cross-site post to /admin/actions with a valid Access token gets 403 and changes nothing', async () => {
    const values = enquiry('fence-csrf', { name: `CSRF ${crypto.randomUUID().slice(0, 8)}` })
    const row = await sent(values)
    // Access adds the token to every request to the site, one a page elsewhere makes included.
    const crossSite: Record<string, string>[] = [
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site', Origin: 'https://preview.aksharalabs.in' },
      { Referer: 'https://evil.example/page' },
    ]
    for (const headers of crossSite) {
      for (const action of ['handled', 'erase', 'retry']) {
        const refused = await postForm(
          worker,
          '/admin/actions',
          { action, id: row.id, confirm: row.id },
          { origin: null, headers: { ...(await asOperator()), ...headers } },
        )
        expect(refused.status, `${JSON.stringify(headers)} ${action}`).toBe(403)
        if (headers.Origin === 'https://evil.example' && action === 'erase')
          expect(await refused.json()).toMatchObject({ error: 'cross_site_request' })
      }
    }
    expect(await rowsOf(values.email)).toEqual([
      expect.objectContaining({ id: row.id, status: 'delivered', handledBy: null, attempts: 1 }),
    ])
    expect(stand.forms.from(values.email)).toHaveLength(1)
    await worker.settled()
    expect(worker.logs().filter((line) => line.event === 'admin' && line.enquiryId === row.id)).toEqual([])
  })
})

describe('a set-up with gaps', () => {
  const gapped = siteUnderTest(() => ({
    vars: stand.production({ CONTACT_FORM_ACCESS_KEY: '', TURNSTILE_SITE_KEY: '1x00000000000000000000AA' }),
  }))

  test('the desk names what is missing in one line that links to the set-up, which says the same in full', async () => {
    const headers = await asOperator()
    const desk = parseHtml(await (await gapped.fetch('/admin', { headers })).text())
    const line = desk.querySelector('[data-testid="setup-gaps"]')
    expect(textOf(line)).toBe(
      'Set-up: the delivery needs CONTACT_FORM_ACCESS_KEY; Turnstile needs TURNSTILE_SECRET_KEY; no allow-list, nor a reason for the Access policy alone. See the set-up',
    )
    expect(line?.querySelector('a')?.getAttribute('href')).toBe('/admin/setup')
    // The panel itself is no longer on the desk.
    expect(desk.querySelector('[data-testid="setup-delivery"]')).toBeNull()

    const setup = parseHtml(await (await gapped.fetch('/admin/setup', { headers })).text())
    expect(textOf(setup.querySelector('[data-testid="setup-missing"]'))).toBe('CONTACT_FORM_ACCESS_KEY')
    expect(textOf(setup.querySelector('[data-testid="setup-turnstile"]'))).toBe('off: TURNSTILE_SECRET_KEY is not set')
    expect(setup.querySelector('nav[aria-label="Desk"] a[aria-current="page"]')?.textContent).toBe('Set-up')
  })
})
