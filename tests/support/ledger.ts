// What the ledger and desk tests share: an enquiry stored straight to D1, and a desk form posted by a signed-in operator.
import { handleDeskAction } from '~/desk/actions.server'
import type { Enquiry } from '~/ledger'
import { storeEnquiry } from '~/ledger/index.server'
import type { WorkerEnv } from '~/server/runtime.server'
import type { AccessKeys } from './access-keys'
import { ledgerEnquiry } from './values'

/** Stores an enquiry received at `receivedAt`, due then (or held for a missing Turnstile check); returns its id. */
export async function storedEnquiry(db: D1Database, receivedAt: string, fields: Partial<Enquiry> = {}, held = false) {
  const enquiry = ledgerEnquiry('e', { receivedAt, ...fields })
  const state = held ? { heldReason: 'turnstile_missing' as const } : { nextAttemptAt: receivedAt }
  await storeEnquiry(db, enquiry, `key-${enquiry.id}`, state)
  return enquiry.id
}

/** A desk form posted to /admin/actions with a token Access signed. */
export async function deskPost(keys: AccessKeys, env: WorkerEnv, fields: Record<string, string>): Promise<Response> {
  return handleDeskAction(
    new Request('https://aksharalabs.in/admin/actions', {
      method: 'POST',
      headers: { 'Cf-Access-Jwt-Assertion': await keys.sign(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }),
    env,
  )
}

/** The flash message a desk action's redirect carries. */
export const flashOf = (response: Response) =>
  new URL(response.headers.get('Location') ?? '', 'https://x').searchParams.get('flash')
