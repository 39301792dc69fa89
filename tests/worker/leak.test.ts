// The form service's key is in no answer of the Worker and no file of the client build.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { PAGES } from '../support/routes'
import { enquiry } from '../support/values'
import { siteUnderTest, standInsForFile, TEST_ACCESS_KEY } from './support/fixtures'
import { postContact, submitContact } from './support/http'
import { clientAddress, withinOneWindow } from './support/site'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.production() }))

const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())

test('the access key never reaches a client: no answer of any route, no file of the client build', async () => {
  const bodies: { what: string; body: string }[] = []
  const keep = async (what: string, response: Response) =>
    bodies.push({ what, body: Buffer.from(await response.arrayBuffer()).toString('latin1') })

  // The form's answers: a message sent, one the service refuses (stored, its failed attempt on
  // record), one refused by the rate limit, the no-JS outcome page of each.
  const refused = enquiry('leak-fail')
  stand.forms.setScenario(refused.email, { kind: 'failure' })
  for (const values of [enquiry('leak-ok'), refused])
    await keep('the server function', await submitContact(worker, values))
  await expect.poll(() => stand.forms.from(refused.email).length).toBe(1)
  await withinOneWindow()
  const limited = clientAddress()
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) {
    const answer = await submitContact(worker, enquiry(`leak-limit-${i}`), { ip: limited })
    statuses.push(answer.status)
    await keep('the server function', answer)
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  await keep('/api/contact', await postContact(worker, enquiry('leak-nojs')))

  // Every page, the files each names (scripts, styles, icons), the JSON endpoint and the 404.
  const named = new Set<string>()
  for (const { path } of PAGES) {
    const page = await worker.fetch(path)
    const html = await page.clone().text()
    await keep(path, page)
    for (const match of html.matchAll(/["'(](\/(?:assets|images|og|fonts)\/[^"'()\s]+)/g)) named.add(match[1] as string)
  }
  for (const file of named) await keep(file, await worker.fetch(file))
  await keep('/api/health', await worker.fetch('/api/health'))
  await keep('404', await worker.fetch('/this-page-does-not-exist'))

  expect(bodies.length).toBeGreaterThan(PAGES.length + 10)
  expect([...named].some((file) => file.endsWith('.js'))).toBe(true)
  expect([...named].some((file) => file.endsWith('.css'))).toBe(true)
  expect(bodies.filter((b) => b.body.includes(TEST_ACCESS_KEY)).map((b) => b.what)).toEqual([])
  expect(worker.output()).not.toContain(TEST_ACCESS_KEY)

  const clientFiles = filesUnder('dist/client')
  expect(clientFiles.length).toBeGreaterThan(5)
  expect(clientFiles.filter((file) => readFileSync(file).includes(TEST_ACCESS_KEY))).toEqual([])
  for (const file of clientFiles.filter((f) => f.endsWith('.js')))
    expect(readFileSync(file, 'utf8'), file).not.toContain('CONTACT_FORM_ACCESS_KEY')
})
