import { mkdirSync, writeFileSync } from 'node:fs'

/**
 * Ports of the processes the end-to-end suite starts (see playwright.config.ts).
 * E2E_PORT_BASE moves them all, so two checkouts can run their suites side by side.
 */
export const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 8788)
export const SITE_PORT = PORT_BASE
export const NO_KEY_SITE_PORT = PORT_BASE + 1
export const FORM_SERVICE_PORT = PORT_BASE + 11

export const FORM_SERVICE_ORIGIN = `http://127.0.0.1:${FORM_SERVICE_PORT}`
export const SITE_ORIGIN = `http://localhost:${SITE_PORT}`
export const NO_KEY_SITE_ORIGIN = `http://localhost:${NO_KEY_SITE_PORT}`

/** A made-up key the test server holds for the stand-in form service; it must never reach a browser. */
export const TEST_ACCESS_KEY = 'e2e-stand-in-key-5c1f0a9b7d3e'

/**
 * Writes the variables files the two test servers load (instead of .dev.vars):
 * one configured with the stand-in form service and a key, one as a fresh clone (no key).
 */
export function writeTestEnvFiles(): { withKey: string; noKey: string } {
  const dir = `.wrangler/e2e-${PORT_BASE}`
  mkdirSync(dir, { recursive: true })
  const withKey = `${dir}/with-key.vars`
  const noKey = `${dir}/no-key.vars`
  writeFileSync(
    withKey,
    [
      'CONTACT_DELIVERY=form-service',
      `CONTACT_FORM_ENDPOINT=${FORM_SERVICE_ORIGIN}/submit`,
      `CONTACT_FORM_ACCESS_KEY=${TEST_ACCESS_KEY}`,
      '',
    ].join('\n'),
  )
  writeFileSync(noKey, [`CONTACT_FORM_ENDPOINT=${FORM_SERVICE_ORIGIN}/submit`, ''].join('\n'))
  return { withKey, noKey }
}
