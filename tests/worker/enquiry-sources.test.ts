// Where an enquiry came from, without JavaScript: the form's hidden fields, the enquiry's page, /admin/sources.
import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { enquiry } from '../support/values'
import { deskUnderTest } from './support/desk'
import { parseHtml, textOf } from './support/html'
import { Cookies, follow, linkTo, pressButton, settledId } from './support/http'

const { worker, asOperator } = deskUnderTest()

const CAMPAIGN = `newsletter-${randomBytes(4).toString('hex')}`

/** A visitor without JavaScript opens `path` from `referer` and sends the form; the enquiry's id. */
async function sendFrom(path: string, referer: string, name: string): Promise<string> {
  const values = enquiry('source', { name })
  const contact = parseHtml(await (await worker.fetch(path, { headers: { Referer: referer } })).text())
  const cookies = new Cookies()
  const post = await pressButton(worker, contact, 'Send Message', { ...values })
  expect(post.status).toBe(303)
  const outcome = parseHtml(await (await follow(worker, post, cookies)).text())
  expect(textOf(outcome.querySelector('#contact-status'))).toContain(SUCCESS_MESSAGE)
  // No cookie is left behind but the outcome's own, cleared once shown.
  expect(cookies.size).toBe(0)
  return settledId(worker, values.email, 'delivered')
}

/** The enquiry's "Where it came from" as the operator sees it, field by field. */
async function sourceShown(name: string): Promise<Record<string, string>> {
  const headers = await asOperator()
  const list = parseHtml(await (await worker.fetch(`/admin?q=${encodeURIComponent(name)}`, { headers })).text())
  const page = parseHtml(await (await worker.fetch(linkTo(list, name), { headers })).text())
  const section = page.querySelector('section[aria-labelledby="source-title"]')
  expect(textOf(section?.querySelector('#source-title'))).toBe('Where it came from')
  const shown: Record<string, string> = {}
  for (const cell of section?.querySelectorAll('[data-source]') ?? [])
    shown[cell.getAttribute('data-source') ?? ''] = textOf(cell)
  return shown
}

test('a visit that lands on /contact from another site is known in full', async () => {
  const name = `Source Landing ${randomBytes(3).toString('hex')}`
  await sendFrom(
    `/contact?utm_source=${CAMPAIGN}&utm_medium=social`,
    'https://www.linkedin.com/feed/update/urn:li:activity:123',
    name,
  )
  expect(await sourceShown(name)).toEqual({
    page: '/contact',
    firstPage: '/contact',
    referrerHost: 'www.linkedin.com',
    utmSource: CAMPAIGN,
    utmMedium: 'social',
    utmCampaign: 'not recorded',
  })
})

test('the desk counts enquiries by source and by first page, over 30 and 90 days', async () => {
  for (const i of [1, 2, 3])
    await sendFrom(
      `/contact?utm_source=${CAMPAIGN}`,
      'https://www.google.com/search?q=devops',
      `Counted ${i} ${randomBytes(2).toString('hex')}`,
    )
  await sendFrom('/contact', 'https://duckduckgo.com/', `Other ${randomBytes(2).toString('hex')}`)
  const headers = await asOperator()
  const desk = parseHtml(await (await worker.fetch('/admin', { headers })).text())
  expect(linkTo(desk, /Where enquiries came from/)).toBe('/admin/sources')
  const page = parseHtml(await (await worker.fetch('/admin/sources', { headers })).text())
  for (const days of [30, 90]) {
    const section = page.querySelector(`[data-testid="sources-${days}"]`)
    const table = (caption: string) =>
      [...(section?.querySelectorAll('table') ?? [])].find(
        (t) => textOf(t.querySelector('caption')) === caption || t.getAttribute('aria-label') === caption,
      )
    const rows = (caption: string) =>
      [...(table(caption)?.querySelectorAll('tbody tr') ?? [])].map((row) => textOf(row))
    expect(rows('By source'), `${days} days`).toContain(`${CAMPAIGN}3`)
    expect(rows('By first page'), `${days} days`).toContain('/contact4')
  }
})
