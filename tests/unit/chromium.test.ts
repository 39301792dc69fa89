import { describe, expect, it } from 'vitest'
import { HEADLESS_SHELL, resolveChromium } from '../support/chromium'

const installed =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path)

describe('which Chromium the tests and scripts drive', () => {
  it('the browser suite takes the headless shell where Debian’s package is installed', () => {
    expect(resolveChromium({ headlessShell: true }, installed(HEADLESS_SHELL, '/usr/bin/chromium'), {})).toBe(
      HEADLESS_SHELL,
    )
  })

  it('without the shell, the browser suite takes /usr/bin/chromium', () => {
    expect(resolveChromium({ headlessShell: true }, installed('/usr/bin/chromium'), {})).toBe('/usr/bin/chromium')
  })

  it('the bench, screenshots and images keep the full browser even where the shell is installed', () => {
    expect(resolveChromium({}, installed(HEADLESS_SHELL, '/usr/bin/chromium'), {})).toBe('/usr/bin/chromium')
  })

  it('CHROMIUM_PATH comes first for both', () => {
    const exists = installed('/opt/chrome', HEADLESS_SHELL, '/usr/bin/chromium')
    expect(resolveChromium({ headlessShell: true }, exists, { CHROMIUM_PATH: '/opt/chrome' })).toBe('/opt/chrome')
    expect(resolveChromium({}, exists, { CHROMIUM_PATH: '/opt/chrome' })).toBe('/opt/chrome')
  })

  it('says how to get one when none is installed', () => {
    expect(() => resolveChromium({ headlessShell: true }, installed(), {})).toThrow(
      /No Chromium found: set CHROMIUM_PATH/,
    )
  })
})
