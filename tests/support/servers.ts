import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { TEST_ACCESS_AUD, TEST_TEAM_DOMAIN } from './access-keys'

/**
 * Ports of the processes the end-to-end suite starts (see playwright.config.ts).
 * E2E_PORT_BASE moves them all, so two checkouts can run their suites side by side.
 */
export const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 8788)
export const SITE_PORT = PORT_BASE
export const NO_KEY_SITE_PORT = PORT_BASE + 1
export const FORM_SERVICE_PORT = PORT_BASE + 11
export const ACCESS_KEYS_PORT = PORT_BASE + 12

export const FORM_SERVICE_ORIGIN = `http://127.0.0.1:${FORM_SERVICE_PORT}`
export const SITE_ORIGIN = `http://localhost:${SITE_PORT}`
export const NO_KEY_SITE_ORIGIN = `http://localhost:${NO_KEY_SITE_PORT}`

/** Where the suite's files live: variables files, the site's log, the Access stand-in's keys. */
export const E2E_DIR = `.wrangler/e2e-${PORT_BASE}`
/** The stand-in Access key server's signing keys (written by tests/support/access-key-server.ts). */
export const ACCESS_KEY_FILE = `${E2E_DIR}/access-keys.json`
/** Everything the main test site prints (wrangler and the Worker's console), for tests that read its log lines. */
export const SITE_LOG_FILE = `${E2E_DIR}/site.log`

/** What the main test site has printed so far. */
export function siteOutput(): string {
  return readFileSync(SITE_LOG_FILE, 'utf8')
}

/** A made-up key the test server holds for the stand-in form service; it must never reach a browser. */
export const TEST_ACCESS_KEY = 'e2e-stand-in-key-5c1f0a9b7d3e'

/**
 * Writes the variables files the two shared test servers load (instead of .dev.vars):
 * - the main site, configured as in production: the stand-in form service with a key, and
 *   Cloudflare Access for the inbox, trusting the stand-in key server;
 * - one as a fresh clone (no key, no Access).
 */
export function writeTestEnvFiles(): { withKey: string; noKey: string } {
  const dir = E2E_DIR
  mkdirSync(dir, { recursive: true })
  const withKey = `${dir}/with-key.vars`
  const noKey = `${dir}/no-key.vars`
  writeFileSync(
    withKey,
    [
      'CONTACT_DELIVERY=form-service',
      `CONTACT_FORM_ENDPOINT=${FORM_SERVICE_ORIGIN}/submit`,
      `CONTACT_FORM_ACCESS_KEY=${TEST_ACCESS_KEY}`,
      `ACCESS_TEAM_DOMAIN=${TEST_TEAM_DOMAIN}`,
      `ACCESS_AUD=${TEST_ACCESS_AUD}`,
      `ACCESS_CERTS_URL=http://127.0.0.1:${ACCESS_KEYS_PORT}/cdn-cgi/access/certs`,
      '',
    ].join('\n'),
  )
  writeFileSync(noKey, [`CONTACT_FORM_ENDPOINT=${FORM_SERVICE_ORIGIN}/submit`, ''].join('\n'))
  return { withKey, noKey }
}
