// Without a valid Access token every /admin page and action is 403; a cross-site post is refused.
import { describe, expect, test } from 'vitest'
import { enquiry } from '../support/values'
import { deskUnderTest } from './support/desk'
import { postForm } from './support/http'

const { stand, worker, asOperator, rowsOf, sent } = deskUnderTest()

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
