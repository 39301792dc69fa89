/**
 * The operator's session for the browser suite: a browser context signed in to the desk through the
 * stand-in Access on the main test site (playwright.config.ts trusts its key file), with the token on
 * every request as Access's edge adds it.
 */
import type { APIRequestContext, Browser, BrowserContext, BrowserContextOptions, Page } from '@playwright/test'
import { type AccessKeys, accessKeysFrom } from './access-keys'
import { type Enquiry, postEnquiry } from './contact'
import { expectStored, type StoredEnquiry } from './enquiries'
import { ACCESS_KEY_FILE, SITE_ORIGIN, SITE_PORT } from './servers'
import { stateDir } from './site-server'

let keys: Promise<AccessKeys> | undefined
const accessKeys = () => {
  keys ??= accessKeysFrom(ACCESS_KEY_FILE)
  return keys
}

export interface Operator {
  email: string
  context: BrowserContext
  page: Page
}

/**
 * A context signed in as the test operator, or, given `label`, as an operator of the test's own (a
 * fresh Access identity, so counts such as "Mine" are the test's alone). Motion is reduced unless asked.
 */
export async function operator(
  browser: Browser,
  options: BrowserContextOptions & { label?: string } = {},
): Promise<Operator> {
  const { label, ...contextOptions } = options
  const email = label ? `${label}-${crypto.randomUUID().slice(0, 6)}@aksharalabs.in` : undefined
  const token = await (await accessKeys()).sign(
    email ? { email, sub: crypto.randomUUID(), expiresIn: 4 * 3600 } : { expiresIn: 4 * 3600 },
  )
  const context = await browser.newContext({
    reducedMotion: 'reduce',
    ...contextOptions,
    extraHTTPHeaders: { 'Cf-Access-Jwt-Assertion': token },
  })
  return { email: email ?? 'operator@aksharalabs.in', context, page: await context.newPage() }
}

/** An enquiry sent to the main test site as a browser without JavaScript sends it, once delivered. */
export async function deliveredEnquiry(request: APIRequestContext, values: Enquiry): Promise<StoredEnquiry> {
  await postEnquiry(request, SITE_ORIGIN, values, 'desk')
  return expectStored(stateDir(SITE_PORT), values.email, 'delivered', undefined, 60_000)
}
