// A set-up with gaps: one line on the desk naming what is missing, linking to the set-up page.
import { describe, expect, test } from 'vitest'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { parseHtml, textOf } from './support/html'
import { TYPED } from './support/http'

const stand = standInsForFile()
const asOperator = async () => ({
  'Cf-Access-Jwt-Assertion': await stand.keys.sign({ expiresIn: 4 * 3600 }),
  ...TYPED,
})

describe('a set-up with gaps', () => {
  const gapped = siteUnderTest(() => ({
    vars: stand.production({ CONTACT_FORM_ACCESS_KEY: '', TURNSTILE_SITE_KEY: '1x00000000000000000000AA' }),
  }))

  test('the desk names what is missing in one line that links to the set-up, which says the same in full', async () => {
    const headers = await asOperator()
    const desk = parseHtml(await (await gapped.fetch('/admin', { headers })).text())
    const line = desk.querySelector('[data-testid="setup-gaps"]')
    expect(textOf(line)).toBe(
      'Set-up: the delivery needs CONTACT_FORM_ACCESS_KEY; Turnstile needs TURNSTILE_SECRET_KEY; no allow-list, nor a reason for the Access policy alone. See the set-up',
    )
    expect(line?.querySelector('a')?.getAttribute('href')).toBe('/admin/setup')
    // The panel itself is no longer on the desk.
    expect(desk.querySelector('[data-testid="setup-delivery"]')).toBeNull()

    const setup = parseHtml(await (await gapped.fetch('/admin/setup', { headers })).text())
    expect(textOf(setup.querySelector('[data-testid="setup-missing"]'))).toBe('CONTACT_FORM_ACCESS_KEY')
    expect(textOf(setup.querySelector('[data-testid="setup-turnstile"]'))).toBe('off: TURNSTILE_SECRET_KEY is not set')
    expect(setup.querySelector('nav[aria-label="Desk"] a[aria-current="page"]')?.textContent).toBe('Set-up')
  })
})
