// `npm run prove-delivery -- --url https://<the deployed site>`
//
// Proves that the deployed Worker can deliver an enquiry with the key it holds now (after a key
// rotation, a rollback, or on staging before production): sends ONE marked test enquiry through
// the site's own contact endpoint, exactly as a visitor's browser without JavaScript would, and
// prints the answer and its request id. It carries no personal data: the sender is
// delivery-check@example.com (RFC 2606), the text says what it is.
//
// Behind Cloudflare Access (staging, previews), CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET (a
// service token) are sent as Access's headers, as the smoke test does.
//
// It talks to the origin given with --url and nothing else: no default URL, redirects are not
// followed, and the URL must be https (plain http only on a loopback address, for the tests).
// It reads the contact page first so that any hidden field the form carries (an idempotency key,
// for instance) is posted with it.
//
// Then it reads the enquiry's row in the database wrangler.toml binds as ENQUIRIES (`wrangler d1
// execute --remote`, with the shell's Cloudflare credentials) until it is delivered, failed or held,
// for up to PROVE_WAIT_SECONDS (default 60), and prints that status. Exit 0 only when delivered: a
// held proof (Turnstile on: a script cannot pass the challenge) proves nothing about the key.
// Then check that the enquiry reached the company mailbox, and find its request id in Workers Logs
// (docs/operations/prove-delivery.md).
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { isLoopbackHost } from '../app/server/loopback.ts'
import { accessHeaders, failure, jsonStdout, wrangler } from './ci/lib.ts'

/** The origin to prove, or a reason to refuse. */
export function targetOrigin(raw: string | undefined): { origin: string } | { refused: string } {
  if (!raw) return { refused: 'give the deployed site with --url https://… (there is no default)' }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { refused: `not a URL: ${raw}` }
  }
  if (url.username || url.password) return { refused: 'the URL must not carry credentials' }
  if (url.protocol === 'https:') return { origin: url.origin }
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return { origin: url.origin }
  return { refused: `only https URLs are accepted (plain http only on a loopback address): ${raw}` }
}

/** Hidden inputs of the contact form (name → value), read from the page's HTML. */
export function hiddenFields(html: string): Record<string, string> {
  const form = /<form\b[^>]*action="\/api\/contact"[^>]*>([\s\S]*?)<\/form>/i.exec(html)?.[1] ?? ''
  const fields: Record<string, string> = {}
  for (const input of form.matchAll(/<input\b[^>]*>/gi)) {
    const tag = input[0]
    if (!/type="hidden"/i.test(tag)) continue
    const name = /name="([^"]*)"/i.exec(tag)?.[1]
    if (name) fields[name] = decode(/value="([^"]*)"/i.exec(tag)?.[1] ?? '')
  }
  return fields
}

function decode(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
}

/** The marked test enquiry: recognisable, with no personal data. */
export function testEnquiry(checkId: string, now = new Date()): Record<string, string> {
  return {
    name: 'Delivery check',
    email: 'delivery-check@example.com',
    company: 'Website operations',
    subject: 'general',
    message: `Test enquiry ${checkId}, sent by \`npm run prove-delivery\` at ${now.toISOString()} to prove that the website can deliver enquiries with its current key. No reply is needed; delete it.`,
    website: '',
  }
}

export interface ProveResult {
  ok: boolean
  status: number
  requestId: string | null
  body: string
  checkId: string
}

/**
 * The contact page's HTML (for its hidden fields), asked again for up to a minute while the site
 * does not answer: just after a deploy or a secret change the new version can take seconds to
 * answer everywhere. Reading a page is safe to repeat; the enquiry itself is posted once.
 */
async function contactPage(origin: string, access: Record<string, string>, waitMs = 60_000): Promise<string> {
  const deadline = Date.now() + waitMs
  for (;;) {
    try {
      const page = await fetch(`${origin}/contact`, {
        headers: access,
        redirect: 'manual',
        signal: AbortSignal.timeout(15_000),
      })
      if (page.ok) return await page.text()
      if (page.status < 500) return ''
    } catch (error) {
      if (Date.now() > deadline) throw error
    }
    if (Date.now() > deadline) return ''
    await new Promise((resolve) => setTimeout(resolve, 3_000))
  }
}

export async function proveDelivery(
  origin: string,
  checkId = randomUUID().slice(0, 8),
  access: Record<string, string> = accessHeaders(),
): Promise<ProveResult> {
  const html = await contactPage(origin, access)
  const fields = { ...hiddenFields(html), ...testEnquiry(checkId) }
  const answer = await fetch(`${origin}/api/contact`, {
    method: 'POST',
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
    headers: {
      ...access,
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
      Origin: origin,
      Referer: `${origin}/contact`,
      'Sec-Fetch-Site': 'same-origin',
      'User-Agent': 'akshara-labs-prove-delivery',
    },
    body: new URLSearchParams(fields).toString(),
  })
  const body = await answer.text()
  let ok = false
  try {
    ok = answer.status === 200 && (JSON.parse(body) as { ok?: unknown }).ok === true
  } catch {}
  return { ok, status: answer.status, requestId: answer.headers.get('X-Request-Id'), body: body.slice(0, 500), checkId }
}

export interface ProofRow {
  status: string
  attempts: number
  lastCause: string | null
  heldReason: string | null
}

/** The proof enquiry's row in production's database (ENQUIRIES in wrangler.toml), or null while it is not there. */
async function proofRow(checkId: string): Promise<ProofRow | null> {
  // The check id is 8 hex characters (proveDelivery's), so it is safe inside the LIKE pattern.
  if (!/^[0-9a-f]{8}$/.test(checkId)) throw new Error(`unexpected check id ${checkId}`)
  const run = await wrangler(
    [
      'd1',
      'execute',
      'ENQUIRIES',
      '--remote',
      '--config',
      'wrangler.toml',
      '--json',
      '--command',
      `SELECT status, attempts, last_cause AS lastCause, held_reason AS heldReason FROM enquiries WHERE message LIKE '%Test enquiry ${checkId},%'`,
    ],
    { quiet: true },
  )
  if (run.status !== 0) throw new Error(`wrangler d1 execute failed: ${failure(run).message}`)
  const [batch] = jsonStdout<{ results: ProofRow[] }[]>(run, 'wrangler d1 execute --json')
  return batch?.results[0] ?? null
}

/** What the proof's row says: delivered, held, failed (given up, or its first attempt failed), or still pending. */
export function proofStatus(row: ProofRow | null): 'delivered' | 'held' | 'failed' | 'pending' | 'missing' {
  if (!row) return 'missing'
  if (row.status === 'delivered' || row.status === 'handled') return 'delivered'
  if (row.status === 'held') return 'held'
  if (row.status === 'failed' || row.attempts > 0) return 'failed'
  return 'pending'
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { url: { type: 'string' } } })
  const target = targetOrigin(values.url)
  if ('refused' in target) {
    console.error(`prove-delivery: refused: ${target.refused}`)
    process.exit(2)
  }
  console.log(`prove-delivery: sending one marked test enquiry to ${target.origin}/api/contact …`)
  let result: ProveResult
  try {
    result = await proveDelivery(target.origin)
  } catch (error) {
    console.error(`prove-delivery: FAILED: ${target.origin} did not answer (${(error as Error).message}).`)
    process.exit(1)
  }
  console.log(`  check id:   ${result.checkId} (in the message text)`)
  console.log(`  answer:     ${result.status} ${result.body}`)
  console.log(`  request id: ${result.requestId ?? '(none)'} (search Workers Logs for it)`)
  if (!result.ok) {
    console.error('prove-delivery: FAILED: the site did not accept the test enquiry (see the answer above).')
    process.exit(1)
  }
  const waitMs = Number(process.env.PROVE_WAIT_SECONDS?.trim() || 60) * 1000
  const deadline = Date.now() + waitMs
  let row: ProofRow | null = null
  let status: ReturnType<typeof proofStatus> = 'missing'
  try {
    for (;;) {
      row = await proofRow(result.checkId)
      status = proofStatus(row)
      if ((status !== 'missing' && status !== 'pending') || Date.now() > deadline) break
      await new Promise((resolve) => setTimeout(resolve, 2_000))
    }
  } catch (error) {
    console.error(`prove-delivery: FAILED: the proof's status could not be read: ${(error as Error).message}`)
    process.exit(1)
  }
  console.log(
    `  status:     ${status}${row?.heldReason ? ` (${row.heldReason})` : ''}${row?.lastCause ? ` (last cause ${row.lastCause})` : ''}`,
  )
  if (status === 'held') {
    console.error(
      'prove-delivery: NOT PROVED: the site held the test enquiry (Turnstile is on, and a script cannot pass its challenge), so nothing was sent with the key. Release it from the desk (docs/desk.md) and check that it is delivered, or send one through the contact page in a browser.',
    )
    process.exit(1)
  }
  if (status !== 'delivered') {
    console.error(
      `prove-delivery: FAILED: the test enquiry is ${status}${row?.lastCause ? ` (last cause ${row.lastCause})` : ''}: the key or the delivery is broken (docs/operations/prove-delivery.md).`,
    )
    process.exit(1)
  }
  console.log(
    `prove-delivery: delivered. Confirm that "Test enquiry ${result.checkId}" reached the company mailbox, and that Workers Logs shows event=contact outcome=delivered for the request id above.`,
  )
}
