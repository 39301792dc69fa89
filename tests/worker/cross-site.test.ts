// The desk's GETs with an effect (docs/security.md): from another site or without Fetch Metadata, a confirmation page.
import { expect, test } from 'vitest'
import { enquiry } from '../support/values'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { parseHtml, textOf } from './support/html'
import { follow, sendEnquiry, serverFnId, serverFnPayload } from './support/http'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.production() }))

const signed = async () => ({ 'Cf-Access-Jwt-Assertion': await stand.keys.sign() })

test('from another site, or with no Fetch Metadata: the confirmation page, and nothing done', async () => {
  const values = enquiry('cross-site', { name: `Cross ${crypto.randomUUID().slice(0, 8)}` })
  const id = await sendEnquiry(worker, values)
  const effects = [
    [`/admin/enquiries/${id}`, 'Open an enquiry.'],
    ['/admin/export.csv', 'Download the enquiries as a CSV file.'],
    [`/admin/person?email=${encodeURIComponent(values.email)}`, 'Look up one person’s enquiries.'],
    [`/admin/person/export.json?email=${encodeURIComponent(values.email)}`, 'Download everything stored about one'],
    [`/admin/erase/${id}`, 'Open the erasure page of an enquiry'],
  ] as const
  for (const site of ['cross-site', 'same-site', null]) {
    for (const [path, words] of effects) {
      const headers: Record<string, string> = { ...(await signed()), 'Sec-Fetch-Mode': 'navigate' }
      if (site) headers['Sec-Fetch-Site'] = site
      const answer = await worker.fetch(path, { headers })
      expect(answer.status, `${site} ${path}`).toBe(303)
      expect(answer.headers.get('location')).toBe(`/admin/confirm?to=${encodeURIComponent(path)}`)
      expect(answer.headers.get('content-disposition')).toBeNull()
      expect(answer.headers.get('cache-control')).toContain('no-store')
      // The confirmation page (reached by the same redirect chain) names the action, and offers a button.
      const page = await follow(worker, answer, undefined, headers)
      expect(page.status).toBe(200)
      const document = parseHtml(await page.text())
      expect(textOf(document.querySelector('[data-testid="confirm-effect"]'))).toContain(words)
      const form = document.querySelector('main form')
      expect(form?.getAttribute('method')).toBe('get')
      expect(form?.getAttribute('action')).toBe(path.split('?')[0])
      expect(textOf(form?.querySelector('button'))).toBe('Go on')
      expect(document.body.textContent).not.toContain(values.message)
    }
  }
  // Nothing read, nothing recorded.
  expect(await worker.sql('SELECT triage FROM enquiries WHERE id = ?', id)).toEqual([{ triage: 'new' }])
  expect(await worker.sql('SELECT * FROM audit_log')).toEqual([])

  // Pages without an effect open from anywhere: Access's login redirect lands on the desk.
  for (const path of ['/admin', '/admin/activity', '/admin/sources', '/admin/setup', '/admin/person']) {
    const answer = await worker.fetch(path, { headers: { ...(await signed()), 'Sec-Fetch-Site': 'cross-site' } })
    expect(answer.status, path).toBe(200)
  }
})

test('from the desk itself, or a typed address, the same GETs work', async () => {
  const values = enquiry('cross-site-own', { name: `Own ${crypto.randomUUID().slice(0, 8)}` })
  const id = await sendEnquiry(worker, values)
  for (const site of ['same-origin', 'none']) {
    const headers = { ...(await signed()), 'Sec-Fetch-Site': site }
    const page = await worker.fetch(`/admin/enquiries/${id}`, { headers })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(values.message)
    const csv = await worker.fetch('/admin/export.csv', { headers })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment;/)
    await csv.body?.cancel()
  }
  expect(await worker.sql('SELECT triage FROM enquiries WHERE id = ?', id)).toEqual([{ triage: 'open' }])
  expect((await worker.sql<{ action: string }>('SELECT action FROM audit_log')).map((row) => row.action)).toEqual(
    expect.arrayContaining(['open', 'export']),
  )
})

test('an effect page’s server function, called from another site, answers nothing and records nothing', async () => {
  const values = enquiry('cross-site-fn', { name: `Fn ${crypto.randomUUID().slice(0, 8)}` })
  const id = await sendEnquiry(worker, values)
  // What the enquiry page's own code calls on a client-side navigation (a GET server function).
  const call = `/_serverFn/${serverFnId('loadEnquiry')}?payload=${encodeURIComponent(serverFnPayload({ id }))}`
  const fromOutside = async (site: string | null) => {
    const headers: Record<string, string> = { ...(await signed()), 'x-tsr-serverFn': 'true' }
    if (site) headers['Sec-Fetch-Site'] = site
    return worker.fetch(call, { headers })
  }
  for (const site of ['cross-site', 'same-site', null]) {
    const answer = await fromOutside(site)
    expect(answer.status, String(site)).toBe(403)
    expect(await answer.text()).not.toContain(values.email)
  }
  expect(await worker.sql('SELECT triage FROM enquiries WHERE id = ?', id)).toEqual([{ triage: 'new' }])
  expect(await worker.sql('SELECT action FROM audit_log WHERE enquiry_id = ?', id)).toEqual([])

  // The desk's own page makes the same call same-origin, and gets the enquiry.
  const own = await fromOutside('same-origin')
  expect(own.status).toBe(200)
  expect(await own.text()).toContain(values.email)
  expect(await worker.sql('SELECT action FROM audit_log WHERE enquiry_id = ?', id)).toEqual([{ action: 'open' }])
})

test('the confirmation page goes on only to a desk address, however the target is written', async () => {
  const refused = [
    '/admin/..//admin.evil.example/login',
    '/admin/%2e%2e//admin.evil.example/login',
    '/admin.evil.example/login',
    '/admin/..\\evil.example/admin/export.csv',
    '\\\\evil.example/admin/export.csv',
    'https://evil.example/admin/export.csv',
    '//evil.example/admin/export.csv',
    'https://evil.example/admin',
    '/contact',
    '/admin',
  ]
  for (const to of refused) {
    const page = await worker.fetch(`/admin/confirm?to=${encodeURIComponent(to)}`, { headers: await signed() })
    expect(page.status, to).toBe(200)
    const document = parseHtml(await page.text())
    expect(document.querySelector('main form'), to).toBeNull()
    expect(textOf(document.querySelector('h1')), to).toBe('Nothing to go on to')
  }
  // The desk's own address still goes on, its action a path on this site.
  const page = await worker.fetch(`/admin/confirm?to=${encodeURIComponent('/admin/export.csv')}`, {
    headers: await signed(),
  })
  expect(
    parseHtml(await page.text())
      .querySelector('main form')
      ?.getAttribute('action'),
  ).toBe('/admin/export.csv')
})

test('a repeated query parameter is read as the page reads it: another site gets the confirmation page', async () => {
  const values = enquiry('cross-site-repeat', { name: `Repeat ${crypto.randomUUID().slice(0, 8)}` })
  await sendEnquiry(worker, values)
  const email = encodeURIComponent(values.email)
  // The page reads the last value: with the address last, a look-up, so the confirmation page;
  // with it first, the empty form, which does nothing.
  for (const [query, status] of [
    [`email=&email=${email}`, 303],
    [`email=${email}&email=`, 200],
  ] as const) {
    const path = `/admin/person?${query}`
    const answer = await worker.fetch(path, {
      headers: { ...(await signed()), 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' },
    })
    expect(answer.status, path).toBe(status)
    if (status === 303) expect(answer.headers.get('location')).toBe(`/admin/confirm?to=${encodeURIComponent(path)}`)
    expect(answer.headers.get('content-security-policy'), path).toBeTruthy()
    expect(answer.headers.get('cache-control'), path).toContain('no-store')
    expect(answer.headers.get('x-request-id'), path).toBeTruthy()
    expect(await answer.text(), path).not.toContain(values.message)
  }
  // Nothing looked up in anyone's name.
  expect(await worker.sql("SELECT action FROM audit_log WHERE action = 'person-search'")).toEqual([])
})
