import { mkdirSync, writeFileSync } from 'node:fs'
import { TEST_ACCESS_AUD, TEST_TEAM_DOMAIN } from './access-keys'

/** The end-to-end suite's ports (playwright.config.ts); E2E_PORT_BASE moves them all. */
export const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 8788)
export const SITE_PORT = PORT_BASE
export const FORM_SERVICE_PORT = PORT_BASE + 11
export const ACCESS_KEYS_PORT = PORT_BASE + 12

export const FORM_SERVICE_ORIGIN = `http://127.0.0.1:${FORM_SERVICE_PORT}`
export const SITE_ORIGIN = `http://localhost:${SITE_PORT}`

/** Where the suite's files live: variables files, the site's log, the Access stand-in's keys. */
export const E2E_DIR = `.wrangler/e2e-${PORT_BASE}`
/** The stand-in Access key server's signing keys (written by tests/support/access-key-server.ts). */
export const ACCESS_KEY_FILE = `${E2E_DIR}/access-keys.json`
/** Everything the test site prints (wrangler and the Worker's console), for a person chasing a failure. */
export const SITE_LOG_FILE = `${E2E_DIR}/site.log`

/** A made-up key the test server holds for the stand-in form service; it must never reach a browser. */
export const TEST_ACCESS_KEY = 'e2e-stand-in-key-5c1f0a9b7d3e'

/** The secret the test server signs receipts' withdraw links with (receipts are on). */
export const TEST_RECEIPT_LINK_SECRET = 'e2e-receipt-link-secret-0123456789abcdef'

/** Writes the test server's variables file: as in production, with the stand-in form service and Access. */
export function writeTestEnvFile(): string {
  const dir = E2E_DIR
  mkdirSync(dir, { recursive: true })
  const withKey = `${dir}/with-key.vars`
  writeFileSync(
    withKey,
    [
      'CONTACT_DELIVERY=form-service',
      `CONTACT_FORM_ENDPOINT=${FORM_SERVICE_ORIGIN}/submit`,
      `CONTACT_FORM_ACCESS_KEY=${TEST_ACCESS_KEY}`,
      `ACCESS_TEAM_DOMAIN=${TEST_TEAM_DOMAIN}`,
      `ACCESS_AUD=${TEST_ACCESS_AUD}`,
      `ACCESS_CERTS_URL=http://127.0.0.1:${ACCESS_KEYS_PORT}/cdn-cgi/access/certs`,
      'RECEIPT_FROM=hello@aksharalabs.in',
      `RECEIPT_LINK_SECRET=${TEST_RECEIPT_LINK_SECRET}`,
      '',
    ].join('\n'),
  )
  return withKey
}
