import { describe, expect, it } from 'vitest'
import { longDate } from '~/content/long-date'
import { privacyPage } from '~/content/privacy'
import { termsPage } from '~/content/terms'

const british = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

describe('longDate', () => {
  it('writes a date as British English does, the way Intl would', () => {
    for (const iso of ['2026-11-23', '2026-01-01', '2025-02-28', '2024-02-29', '2027-12-31', '2026-07-09']) {
      expect(longDate(iso)).toBe(british.format(new Date(`${iso}T00:00:00Z`)))
    }
    expect(longDate('2026-11-03')).toBe('3 November 2026')
  })

  it('writes every legal page date', () => {
    for (const page of [privacyPage, termsPage]) {
      expect(longDate(page.updated)).toBe(british.format(new Date(page.updated)))
    }
  })

  it('refuses what is not a calendar date, instead of printing nonsense', () => {
    for (const bad of ['', '23/11/2026', '2026-13-01', '2026-00-10', '2026-11-32', '2026-11-00', '2026-11-23T10:00']) {
      expect(() => longDate(bad)).toThrow(/Not a calendar date/)
    }
  })
})
