// @vitest-environment node
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { enquiryEmail } from '~/contact/deliveries/email.server'
import { enquiryInputSchema } from '~/contact/schema'
import { mailtoHref } from '~/desk/mailto'
import { buildPlainTextEmail } from '~/notices/message'
import { ledgerEnquiry } from '../support/values'

/** Addresses the form accepts whose local part could add a recipient or header to a reply link. */
const TABLE: [string, string][] = [
  [
    'sales%40client.example?bcc=spy%40evil.example&x=@a.co',
    'mailto:sales%2540client.example%3Fbcc%3Dspy%2540evil.example%26x%3D@a.co',
  ],
  ['a?cc=spy@evil.example', 'mailto:a%3Fcc%3Dspy@evil.example'],
  ['x&bcc=spy@a.co', 'mailto:x%26bcc%3Dspy@a.co'],
  ['100%25off@a.co', 'mailto:100%2525off@a.co'],
  ['a=b#c@a.co', 'mailto:a%3Db%23c@a.co'],
  ['x/y@a.co', 'mailto:x%2Fy@a.co'],
  ['first.last+tag@a.co', 'mailto:first.last%2Btag@a.co'],
  ["o'brien@a.co", "mailto:o'brien@a.co"],
  ['plain@aksharalabs.in', 'mailto:plain@aksharalabs.in'],
]

/** What RFC 6068 tells a mail client: split off `?` header fields, then decode the addresses. */
function recipients(href: string): { to: string[]; fields: string[] } {
  const body = href.slice('mailto:'.length)
  const [to = '', query] = body.split('?', 2)
  return {
    to: to.split(',').map((address) => decodeURIComponent(address)),
    fields: query ? query.split('&').map((field) => decodeURIComponent(field.split('=')[0] ?? '')) : [],
  }
}

describe('mailto: links in the desk', () => {
  for (const [address, href] of TABLE) {
    it(`${address} → ${href}: one recipient, no header fields`, () => {
      // The form accepts it (the browser's type="email" rule).
      expect(v.safeParse(enquiryInputSchema.entries.email, address).success, 'accepted by the form').toBe(true)
      expect(mailtoHref(address)).toBe(href)
      expect(recipients(href)).toEqual({ to: [address], fields: [] })
      const url = new URL(href)
      expect(url.protocol).toBe('mailto:')
      expect(url.search).toBe('')
      expect(url.hash).toBe('')
      expect(decodeURIComponent(url.pathname)).toBe(address)
    })
  }

  it('an address whose domain is not a plain host name gets no link', () => {
    const smuggled = ['a@b.co?bcc=spy@evil.example', 'a@b.co,spy@evil.example', 'a@[127.0.0.1]']
    for (const address of ['no-at-sign', '@a.co', 'a@', ...smuggled]) expect(mailtoHref(address), address).toBeNull()
  })

  it('the e-mail delivery’s Reply-To names the one address, as a header and not a link: no Bcc, no Cc', () => {
    const address = 'sales%40client.example?bcc=spy%40evil.example&x=@a.co'
    const raw = buildPlainTextEmail(
      enquiryEmail(ledgerEnquiry('e1', { name: 'Mallory', email: address }), 'website@aksharalabs.in'),
    )
    const headers = raw.split('\r\n\r\n')[0]?.split('\r\n') ?? []
    expect(headers.filter((line) => /^(bcc|cc|to|reply-to):/i.test(line))).toEqual([
      'To: "Akshara Labs" <hello@akshara.example>',
      `Reply-To: "Mallory" <${address}>`,
    ])
  })
})
