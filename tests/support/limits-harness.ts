/**
 * The unit harness of the floods' rules: a real SQLite behind the D1 API, the form service and
 * Turnstile's siteverify as a stubbed `fetch` (a token `good` passes), and the Worker's log read
 * back. The bindings' own counting is workerd's (tests/worker/rate-limits.test.ts).
 */
import { afterEach, beforeEach, vi } from 'vitest'
import { type EnquiryOutcome, submitEnquiry } from '~/contact/contact.server'
import { resetLimitState } from '~/contact/limits.server'
import type { EnquiryInput } from '~/contact/schema'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { captureConsole } from './console'
import { type SqliteD1, sqliteD1 } from './d1-sqlite'
import { tokenEnquiryInput } from './enquiry-input'
import { formServiceEnv, waitUntilCollector } from './fake-env'

const FORM_ENDPOINT = 'https://forms.test/submit'

/** The file's stand-ins, fresh for each test. */
export const limits = {
  d1: undefined as unknown as SqliteD1,
  printed: undefined as unknown as ReturnType<typeof captureConsole>,
  /** The e-mail address of each enquiry the form service received. */
  formPosts: [] as string[],
}

/** Registers the per-test set-up: a fresh database, the limits' memory cleared, `fetch` stubbed. */
export function setUpLimitsHarness() {
  beforeEach(() => {
    limits.d1 = sqliteD1()
    resetLimitState()
    limits.formPosts = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
        const url = String(input instanceof Request ? input.url : input)
        if (url === FORM_ENDPOINT) {
          limits.formPosts.push(JSON.parse(String(init?.body)).email)
          return Response.json({ success: true })
        }
        // Siteverify: a token `good` passes, for this site's host and the form's action.
        const token = String((init?.body as FormData | undefined)?.get('response'))
        return Response.json(
          token === 'good'
            ? { success: true, action: 'contact', hostname: new URL(site.url).hostname, 'error-codes': [] }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        )
      }),
    )
    limits.printed = captureConsole()
  })

  afterEach(() => {
    vi.unstubAllGlobals()
    limits.d1.close()
  })
}

export function env(extra: Record<string, unknown> = {}): WorkerEnv {
  return formServiceEnv(FORM_ENDPOINT, limits.d1.db, extra)
}

export const enquiryInput = (token?: string): EnquiryInput => tokenEnquiryInput('limits', token)

export async function submit(address: string, e: WorkerEnv, data = enquiryInput()): Promise<EnquiryOutcome> {
  const work = waitUntilCollector()
  const outcome = await submitEnquiry(data, {
    requestId: 'test-request',
    env: e,
    request: new Request('https://aksharalabs.in/_serverFn/x', {
      method: 'POST',
      headers: { 'CF-Connecting-IP': address },
    }),
    waitUntil: work.waitUntil,
  })
  await work.settle()
  return outcome
}

export const stored = () => limits.d1.query<{ status: string }>('SELECT status FROM enquiries')
export const logged = () => limits.printed.lines().map((line) => JSON.parse(line) as Record<string, unknown>)
