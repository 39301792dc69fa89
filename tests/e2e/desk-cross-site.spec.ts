import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { enquiry, expect, test } from '../support/contact'
import { auditLinesBy, queryStored } from '../support/enquiries'
import { deliveredEnquiry, operator } from '../support/operator'
import { SITE_ORIGIN, SITE_PORT } from '../support/servers'
import { stateDir } from '../support/site-server'

// Another site's links and redirects to the desk, in a signed-in operator's browser (docs/security.md):
// only Fetch Metadata tells the desk; no download, audit line or read mark; the desk's own links work.
test.describe.configure({ mode: 'default', timeout: 180_000 })

const persistTo = stateDir(SITE_PORT)
let elsewhere: Server
let elsewhereOrigin: string
let targets: Record<string, string> = {}

test.beforeAll(async () => {
  // Another site: 127.0.0.1 is not localhost, so a navigation from it is `cross-site`.
  elsewhere = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    const target = targets[path.slice('/go/'.length)]
    if (path.startsWith('/go/') && target) {
      response.writeHead(302, { Location: `${SITE_ORIGIN}${target}` }).end()
      return
    }
    const links = Object.entries(targets)
      .map(
        ([name, to]) =>
          `<li><a id="link-${name}" href="${SITE_ORIGIN}${to}">${name}</a> <a id="redirect-${name}" href="/go/${name}">${name} by redirect</a></li>`,
      )
      .join('')
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    response.end(`<!doctype html><html lang="en"><title>Elsewhere</title><main><ul>${links}</ul></main></html>`)
  })
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve))
  elsewhereOrigin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`
})
test.afterAll(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())))

test('links and redirects from another site: no download, no audit line, no state change; the desk’s own links work', async ({
  browser,
  request,
}) => {
  const values = enquiry('cross-site-e2e', { name: `Elsewhere ${crypto.randomUUID().slice(0, 8)}` })
  const { id } = await deliveredEnquiry(request, values)
  targets = {
    export: '/admin/export.csv',
    lookup: `/admin/person?email=${encodeURIComponent(values.email)}`,
    enquiry: `/admin/enquiries/${id}`,
  }
  const { email, context, page } = await operator(browser, { label: 'cross', acceptDownloads: true })
  const downloads: string[] = []
  page.on('download', (download) => downloads.push(download.url()))

  for (const name of Object.keys(targets))
    for (const how of ['link', 'redirect']) {
      await page.goto(`${elsewhereOrigin}/`)
      await page.locator(`#${how}-${name}`).click()
      await expect(page).toHaveURL(/\/admin\/confirm\?to=/)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Go on?')
      await expect(page.getByRole('button', { name: 'Go on' })).toBeVisible()
    }
  expect(downloads).toEqual([])
  expect(auditLinesBy(persistTo, email)).toEqual([])
  expect(queryStored(persistTo, 'SELECT triage FROM enquiries WHERE id = ?', id)).toEqual([{ triage: 'new' }])

  // From the desk: the confirmation page's button opens the enquiry; the desk's link does too.
  await page.goto(`${elsewhereOrigin}/`)
  await page.locator('#link-enquiry').click()
  await page.getByRole('button', { name: 'Go on' }).click()
  await expect(page.getByRole('heading', { level: 1, name: values.name })).toBeVisible()
  // The look-up from the desk's own search form.
  await page.goto(`${SITE_ORIGIN}/admin/person`)
  await page.getByLabel('E-mail address (exact)').fill(values.email)
  await page.getByRole('button', { name: 'Find' }).click()
  await expect(page.getByRole('heading', { level: 2, name: `1 enquiry from ${values.email}` })).toBeVisible()
  // (The export's own download is the worker test's: a browser's download manager does not send the test's token.)
  await expect.poll(() => auditLinesBy(persistTo, email)).toEqual(['open', 'person-search'])
  await context.close()
})
