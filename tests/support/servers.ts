import { readFileSync } from 'node:fs'

/** Ports of the processes the end-to-end suite starts (see playwright.config.ts). */
export const FORM_SERVICE_PORT = 8799
export const SITE_PORT = 8788
export const OUTBOX_SITE_PORT = 8789

export const FORM_SERVICE_ORIGIN = `http://127.0.0.1:${FORM_SERVICE_PORT}`
export const SITE_ORIGIN = `http://localhost:${SITE_PORT}`
export const OUTBOX_SITE_ORIGIN = `http://localhost:${OUTBOX_SITE_PORT}`

/** Reads a variable from one of the test env files. */
export function testVar(file: 'with-key' | 'no-key', name: string): string | undefined {
  const text = readFileSync(new URL(`../e2e/env/${file}.vars`, import.meta.url), 'utf8')
  const line = text.split('\n').find((l) => l.startsWith(`${name}=`))
  return line?.slice(name.length + 1).trim()
}

/** The access key the test server holds; it must never reach a browser. */
export const TEST_ACCESS_KEY = testVar('with-key', 'CONTACT_FORM_ACCESS_KEY') ?? ''
