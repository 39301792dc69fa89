// @vitest-environment node
// Where an enquiry came from, on the server. Posted without JavaScript: tests/worker/enquiry-sources.test.ts.
import * as v from 'valibot'
import { describe, expect, it, vi } from 'vitest'
import { formServicePayload } from '~/contact/deliveries/form-service.server'
import { enquiryInputSchema, hostName, SOURCE_LIMITS, sameSitePath, utmValue } from '~/contact/schema'
import { enquiriesCsv } from '~/desk/csv-export.server'
import { getEnquiry, sourceReport } from '~/ledger/index.server'
import { FakeEmailMessage } from '../support/fake-env'
import { env, form, setUpSubmitHarness, submit as submitEnquiry } from '../support/submit-harness'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

const MESSAGE = {
  name: 'Ravi Kumar',
  email: 'ravi@example.com',
  company: '',
  subject: 'devops',
  message: 'We would like help with our pipelines.',
}

describe('the server’s rules for each value', () => {
  it('accepts a path on this site only', () => {
    for (const path of ['/', '/services/devops', '/contact', '/a-b_c.d~e/%20x'])
      expect(sameSitePath(path), path).toBe(path)
    const bad = ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'services', '/a?utm_source=x', '/a#b']
    for (const path of [...bad, '/a b', '/ünï', `/${'a'.repeat(SOURCE_LIMITS.path)}`, 42, null])
      expect(sameSitePath(path), String(path)).toBeUndefined()
  })

  it('accepts host names only, lower-cased', () => {
    expect(hostName('WWW.Google.COM')).toBe('www.google.com')
    expect(hostName('xn--80ak6aa92e.com')).toBe('xn--80ak6aa92e.com')
    const notHosts = ['https://google.com', 'google.com/x', 'google.com:443', '[::1]', 'a..b', '-a.com', '', 'a_b.com']
    for (const bad of notHosts) expect(hostName(bad), bad).toBeUndefined()
    expect(hostName(`${`${'a'.repeat(63)}.`.repeat(4)}com`)).toBeUndefined()
  })

  it('accepts short plain UTM text, trimmed; drops control characters, markup and anything over the caps', () => {
    expect(utmValue('  spring sale 2026  ')).toBe('spring sale 2026')
    expect(utmValue('नमस्ते')).toBe('नमस्ते')
    expect(utmValue('a'.repeat(SOURCE_LIMITS.utm))).toBe('a'.repeat(SOURCE_LIMITS.utm))
    const refused = ['a'.repeat(SOURCE_LIMITS.utm + 1), 'line\nbreak', 'tab\there', '\u202Eevil', '<script>', '   ', 7]
    for (const bad of refused) expect(utmValue(bad), JSON.stringify(bad)).toBeUndefined()
    // 100 graphemes of one letter with combining marks: within the character cap, over the byte cap.
    expect(utmValue('é\u0301\u0301'.repeat(SOURCE_LIMITS.utm))).toBeUndefined()
  })

  it('drops bad values and still accepts the enquiry', () => {
    const parsed = v.safeParse(enquiryInputSchema, {
      ...MESSAGE,
      source_page: 'https://evil.example/',
      source_first_page: '/services/devops',
      source_referrer: { host: 'x' },
      utm_source: 'x'.repeat(500),
      utm_medium: 'email',
      utm_campaign: ['a'],
    })
    expect(parsed.success).toBe(true)
    if (!parsed.success) return
    expect(parsed.output).toMatchObject({ source_first_page: '/services/devops', utm_medium: 'email' })
    for (const key of ['source_page', 'source_referrer', 'utm_source', 'utm_campaign'] as const)
      expect(parsed.output[key], key).toBeUndefined()
  })
})

describe('the stored source', () => {
  setUpSubmitHarness()
  async function submit(extra: Record<string, unknown>) {
    const outcome = await submitEnquiry(v.parse(enquiryInputSchema, { ...MESSAGE, ...extra }), env())
    if (outcome.kind !== 'stored') throw new Error(`not stored: ${outcome.kind}`)
    const record = await getEnquiry(form.d1.db, outcome.enquiryId)
    if (!record) throw new Error('not found')
    return record
  }

  it('is kept with the enquiry, shown by the CSV, and never sent to the form service', async () => {
    const record = await submit({
      source_page: '/contact',
      source_first_page: '/services/devops',
      source_referrer: 'www.google.com',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'winter',
    })
    expect(record.source).toEqual({
      page: '/contact',
      firstPage: '/services/devops',
      referrerHost: 'www.google.com',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'winter',
    })
    const [header, row] = enquiriesCsv([record]).slice(1).split('\r\n')
    expect(header).toContain('"Sent from page","First page","Referrer","UTM source","UTM medium","UTM campaign"')
    expect(row).toContain('"/contact","/services/devops","www.google.com","newsletter","email","winter"')
    expect(Object.keys(formServicePayload(record, 'k')).sort()).toEqual(
      ['access_key', 'company', 'email', 'message', 'name', 'subject'].sort(),
    )
  })

  it('is all "not recorded" for an enquiry sent without one (and for rows from before migration 0007)', async () => {
    const record = await submit({})
    expect(Object.values(record.source ?? {})).toEqual([null, null, null, null, null, null])
    const row = enquiriesCsv([record]).slice(1).split('\r\n')[1]
    expect(row?.endsWith(',"","","","","",""')).toBe(true)
  })

  it('counts enquiries by source and by first page in a window', async () => {
    await submit({ source_first_page: '/services/devops', utm_source: 'newsletter' })
    await submit({ source_first_page: '/services/devops', source_referrer: 'www.google.com' })
    await submit({ source_first_page: '/', source_referrer: 'www.google.com', utm_source: 'newsletter' })
    await submit({})
    form.d1.sqlite.exec(`UPDATE enquiries SET received_at = '2020-01-01T00:00:00.000Z' WHERE first_page = '/'`)
    const report = await sourceReport(form.d1.db, new Date(Date.now() - 30 * 86_400_000).toISOString(), 30)
    expect(report.total).toBe(3)
    expect(report.bySource).toEqual([
      { label: 'Direct or not recorded', count: 1 },
      { label: 'newsletter', count: 1 },
      { label: 'www.google.com', count: 1 },
    ])
    expect(report.byFirstPage).toEqual([
      { label: '/services/devops', count: 2 },
      { label: 'Not recorded', count: 1 },
    ])
  })
})

describe('the privacy page', () => {
  it('states what is recorded about where an enquiry came from, and that no cookie is used', async () => {
    const { privacyPage } = await import('~/content/privacy')
    const section = privacyPage.sections.find((s) => s.title === 'Where an enquiry came from')
    const text = section?.paragraphs.join(' ') ?? ''
    const said = [
      'the page you sent the form from',
      'the first page',
      'never the address',
      'No cookie',
      'session storage',
    ]
    for (const words of [...said, 'utm_source', 'utm_medium', 'utm_campaign']) expect(text, words).toContain(words)
  })
})
