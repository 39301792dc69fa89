// Single-line fields refuse line breaks and separators; byte caps stand beside the character caps.
import { describe, expect, it } from 'vitest'
import { BYTE_LIMITS, MESSAGES, validateContact } from '~/contact/schema'
import { errorsFor, valid } from '../support/contact-values'

describe('single-line fields', () => {
  const separators: [string, string][] = [
    ['U+2028 LINE SEPARATOR', '\u2028'],
    ['U+2029 PARAGRAPH SEPARATOR', '\u2029'],
    ['U+202E RIGHT-TO-LEFT OVERRIDE', '\u202E'],
    ['U+2066 LEFT-TO-RIGHT ISOLATE', '\u2066'],
    ['U+200F RIGHT-TO-LEFT MARK', '\u200F'],
    ['U+0085 NEXT LINE', '\u0085'],
  ]
  for (const [what, char] of separators) {
    it(`refuse ${what} in the name and the company`, () => {
      expect(errorsFor({ ...valid, name: `Ravi${char}Kumar` }).name).toBe(MESSAGES.nameInvalid)
      expect(errorsFor({ ...valid, company: `ACME${char}evil.exe` }).company).toBe(MESSAGES.companyInvalid)
    })
  }

  it('leave the message free to hold line feeds (and the separators a pasted text may have)', () => {
    const result = validateContact({ ...valid, message: 'Line one\nLine two\u2028Line three' })
    expect(result.success && result.output.message).toBe('Line one\nLine two\u2028Line three')
  })
})

describe('byte caps beside the character caps', () => {
  const encoder = new TextEncoder()
  const graphemes = (s: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].length

  it('refuse a 100-character name stuffed with combining marks', () => {
    const zalgo = `a${'\u0301'.repeat(40)}`.repeat(100)
    expect(graphemes(zalgo)).toBe(100)
    expect(encoder.encode(zalgo).byteLength).toBeGreaterThan(BYTE_LIMITS.name)
    expect(errorsFor({ ...valid, name: zalgo }).name).toBe(MESSAGES.nameTooLong)
    expect(errorsFor({ ...valid, company: zalgo }).company).toBe(MESSAGES.companyTooLong)
  })

  it('accept a 100-character name in Devanagari', () => {
    const name = 'क्षि'.repeat(100)
    const count = graphemes(name)
    const padded = count < 100 ? `${name}${'क'.repeat(100 - count)}` : name
    expect(graphemes(padded)).toBeGreaterThanOrEqual(100)
    const hundred = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(padded)]
      .slice(0, 100)
      .map((s) => s.segment)
      .join('')
    expect(graphemes(hundred)).toBe(100)
    expect(encoder.encode(hundred).byteLength).toBeLessThanOrEqual(BYTE_LIMITS.name)
    expect(errorsFor({ ...valid, name: hundred }).name).toBeUndefined()
    expect(errorsFor({ ...valid, company: hundred }).company).toBeUndefined()
  })

  it('cap the message at 24,000 bytes', () => {
    const heavy = `e${'\u0301'.repeat(10)}`.repeat(2000)
    expect(graphemes(heavy)).toBe(2000)
    expect(errorsFor({ ...valid, message: heavy }).message).toBe(MESSAGES.messageTooLong)
  })
})
