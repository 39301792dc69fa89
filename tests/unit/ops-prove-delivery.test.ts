// @vitest-environment node
import { execFile } from 'node:child_process'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { hiddenFields, proofStatus, targetOrigin } from '../../scripts/prove-delivery'

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/** A loopback stand-in for the deployed site: a contact page with a hidden field, and the endpoint. */
async function standIn(answer: { status: number; body: string }) {
  const seen: Seen[] = []
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
    if (req.method === 'GET' && req.url === '/contact') {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      res.end(
        '<form method="post" action="/api/contact"><input type="hidden" name="idempotencyKey" value="k-123&amp;x"/><input name="name"/></form>',
      )
      return
    }
    res.writeHead(answer.status, { 'Content-Type': 'application/json', 'X-Request-Id': 'req-42' })
    res.end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}
const servers: ReturnType<typeof createServer>[] = []
afterEach(() => {
  for (const s of servers.splice(0)) s.close()
})

/** `npm run prove-delivery -- <args>`, as a child process (the stand-in answers from this one). */
function run(args: string[]) {
  return new Promise<{ status: number | null; output: string }>((resolve) =>
    execFile(process.execPath, ['scripts/prove-delivery.ts', ...args], (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code) : 0, output: `${stdout}${stderr}` }),
    ),
  )
}

vi.setConfig({ testTimeout: 30_000 })

describe('npm run prove-delivery', () => {
  it('sends exactly one marked test enquiry, with no personal data, to the given site only', async () => {
    const site = await standIn({ status: 200, body: '{"ok":true}' })
    const { output } = await run(['--url', `${site.origin}/anything?x=1`])
    // What became of it is read from the database next (tests/drills/key-rotation.test.ts).
    expect(output).toContain('req-42')
    expect(site.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /contact', 'POST /api/contact'])
    const post = site.seen[1] as Seen
    expect(post.headers.origin).toBe(site.origin)
    expect(Object.fromEntries(new URLSearchParams(post.body))).toMatchObject({
      idempotencyKey: 'k-123&x',
      email: 'delivery-check@example.com',
      website: '',
      message: expect.stringMatching(/^Test enquiry [0-9a-f]{8}, sent by `npm run prove-delivery`/),
    })
  })

  it('calls the proof delivered only when its row says so; held, failed and an attempt that failed are not', () => {
    const row = (status: string, attempts = 0) => ({ status, attempts, lastCause: null, heldReason: null })
    const rows = [row('delivered', 1), row('held'), row('failed', 6), row('pending', 1), row('pending'), null]
    expect(rows.map(proofStatus)).toEqual(['delivered', 'held', 'failed', 'failed', 'pending', 'missing'])
  })

  it('fails when the site does not accept it', async () => {
    const site = await standIn({ status: 502, body: '{"ok":false,"error":"delivery_failed"}' })
    const { status, output } = await run(['--url', site.origin])
    expect(status).toBe(1)
    expect(output).toContain('502')
  })

  it('refuses without a URL, and refuses plain http anywhere but loopback, before sending anything', async () => {
    expect((await run([])).status).toBe(2)
    expect(targetOrigin('http://aksharalabs.example')).toEqual({ refused: expect.stringContaining('only https') })
    expect(targetOrigin('https://user:pw@aksharalabs.example')).toEqual({ refused: expect.any(String) })
    expect(targetOrigin('https://aksharalabs.example/contact')).toEqual({ origin: 'https://aksharalabs.example' })
  })

  it('reads only the contact form’s hidden fields', () => {
    expect(
      hiddenFields(
        '<input type="hidden" name="outside" value="1"><form action="/api/contact"><input type="hidden" name="k" value="v"></form>',
      ),
    ).toEqual({ k: 'v' })
  })
})
