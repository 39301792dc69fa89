// Where an enquiry came from, in the browser and in the contact page's own request; on the server:
// enquiry-source-ledger.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { contactPageSource, landingSource, referrerHost, rememberVisit, VISIT_KEY } from '~/lib/visit-source'
import { rememberedVisit, sourceToSend } from '~/lib/visit-source-send'

const SITE = 'https://aksharalabs.in'
describe('the referrer, reduced to its host', () => {
  it('keeps only the lower-case host name of another site, never its path or query', () => {
    expect(referrerHost('https://WWW.Google.com/search?q=pumps+automation', 'aksharalabs.in')).toBe('www.google.com')
    expect(referrerHost('http://news.example:8080/a/b?c=d#e', 'aksharalabs.in')).toBe('news.example')
  })

  it('is none for this site, an empty referrer, or something that is not an http(s) address', () => {
    for (const referrer of [`${SITE}/services/devops`, '', null, 'not a url', 'android-app://com.example/'])
      expect(referrerHost(referrer, 'aksharalabs.in'), String(referrer)).toBeUndefined()
  })
})

describe("a visit's first page", () => {
  it('records the path, the referring host and the three UTM values, and nothing else of the address', () => {
    const url = new URL(`${SITE}/services/devops?utm_source=newsletter&utm_medium=email&utm_campaign=winter&gclid=x`)
    expect(landingSource(url, 'https://mail.example.com/desk/123')).toEqual({
      source_first_page: '/services/devops',
      source_referrer: 'mail.example.com',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'winter',
    })
  })
})

describe('the contact page without JavaScript (its own request)', () => {
  it('keeps no value too long for the server to accept, so the form post stays small', () => {
    const long = 'x'.repeat(5000)
    const url = new URL(`${SITE}/contact?utm_source=${long}&utm_medium=email`)
    expect(contactPageSource(url, null)).toEqual({
      source_page: '/contact',
      source_first_page: '/contact',
      utm_medium: 'email',
    })
    expect(contactPageSource(new URL(`${SITE}/${long}`), null)).toEqual({})
  })

  it('is the landing page when the referrer is another site: all of it is known', () => {
    const url = new URL(`${SITE}/contact?utm_source=partner`)
    expect(contactPageSource(url, 'https://partner.example/post')).toEqual({
      source_page: '/contact',
      source_first_page: '/contact',
      source_referrer: 'partner.example',
      utm_source: 'partner',
    })
    expect(contactPageSource(new URL(`${SITE}/contact`), null)).toEqual({
      source_page: '/contact',
      source_first_page: '/contact',
    })
  })

  it('after a page of this site: the first page is not known; UTM from its own address, else the referring page', () => {
    const url = new URL(`${SITE}/contact`)
    expect(contactPageSource(url, `${SITE}/services/devops?utm_source=newsletter&utm_campaign=winter`)).toEqual({
      source_page: '/contact',
      utm_source: 'newsletter',
      utm_campaign: 'winter',
    })
    expect(
      contactPageSource(new URL(`${SITE}/contact?utm_source=own`), `${SITE}/services/devops?utm_source=other`),
    ).toEqual({ source_page: '/contact', utm_source: 'own' })
  })
})

describe('the tab’s record (sessionStorage)', () => {
  const setReferrer = (value: string) => Object.defineProperty(document, 'referrer', { value, configurable: true })
  // happy-dom's own door for the page's address (what a navigation would change).
  const goTo = (url: string) => (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url)

  beforeEach(() => {
    sessionStorage.clear()
    setReferrer('')
  })
  afterEach(() => goTo('http://localhost:3000/'))

  it('is set on the first page of the visit and kept as the visitor moves on; no cookie is set', () => {
    goTo(`${SITE}/services/devops?utm_source=newsletter&utm_medium=email`)
    setReferrer('https://www.google.com/search?q=x')
    rememberVisit()
    goTo(`${SITE}/about`)
    setReferrer(`${SITE}/services/devops`)
    rememberVisit()
    goTo(`${SITE}/contact`)
    expect(sourceToSend()).toEqual({
      source_page: '/contact',
      source_first_page: '/services/devops',
      source_referrer: 'www.google.com',
      utm_source: 'newsletter',
      utm_medium: 'email',
    })
    expect(document.cookie).toBe('')
  })

  it('starts again when the tab arrives from another site or with UTM values (a new visit)', () => {
    goTo(`${SITE}/`)
    rememberVisit()
    goTo(`${SITE}/products?utm_campaign=launch`)
    rememberVisit()
    expect(rememberedVisit()).toEqual({ source_first_page: '/products', utm_campaign: 'launch' })
  })

  it('reads back only known fields holding short strings; unreadable storage is no record', () => {
    sessionStorage.setItem(VISIT_KEY, JSON.stringify({ source_first_page: '/x', utm_source: 5, evil: 'y' }))
    expect(rememberedVisit()).toEqual({ source_first_page: '/x' })
    sessionStorage.setItem(VISIT_KEY, '{not json')
    expect(rememberedVisit()).toEqual({})
  })

  it('falls back to what the server found for the page when the tab kept nothing', () => {
    goTo(`${SITE}/contact`)
    expect(sourceToSend({ source_first_page: '/contact', source_referrer: 'partner.example' })).toEqual({
      source_page: '/contact',
      source_first_page: '/contact',
      source_referrer: 'partner.example',
    })
  })
})
