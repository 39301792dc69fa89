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
// Exit 0: the site answered 200 {"ok": true}. Then check that the enquiry reached the company mailbox, and
// find its request id in Workers Logs (docs/operations/prove-delivery.md).
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { isLoopbackHost } from '../app/server/loopback.ts'
import { accessHeaders } from './ci/lib.ts'

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
  console.log(
    `prove-delivery: accepted. Now confirm that "Test enquiry ${result.checkId}" reached the company mailbox, and that Workers Logs shows event=contact outcome=sent for the request id above.`,
  )
}
