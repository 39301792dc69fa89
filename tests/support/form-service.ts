/**
 * A stand-in for the third-party form service, on 127.0.0.1 only.
 *
 * POST /submit answers like the real service ({ success: true }) unless a scenario was
 * registered for the submitted e-mail address; scenarios simulate the service's faults.
 * It keeps Web3Forms' plan rule (serverSideRefusal below): on the free plan a server-side post is
 * refused, so a Worker's delivery is tested against a `paid` plan (every caller that stands for a
 * form service a Worker may post to says so).
 * Control API (for tests):
 *   POST   /__scenario  { email, scenario }   answer posts from `email` this way
 *   GET    /__requests?email=…                 what was received (all, or for one address)
 *   DELETE /__requests                         forget everything
 *   GET    /__health                           200 when up
 *
 * Run alone: `node tests/support/form-service.ts` (FORM_SERVICE_PORT, default 8799; FORM_SERVICE_PLAN,
 * default free). Imported: `await startFormService(0, '127.0.0.1', { plan: 'paid' })` for a
 * private instance on a free port that accepts a Worker's posts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Scenario =
  | { kind: 'success' }
  | { kind: 'failure' } // 200 { success: false }
  | { kind: 'status'; status: number; body?: string } // any status, JSON error body unless given
  | { kind: 'html' } // 200 text/html
  | { kind: 'truncated' } // 200 application/json, cut off mid-object
  | { kind: 'slow'; delayMs: number } // success, after a delay
  | { kind: 'hang' } // never answers
  | { kind: 'reset' } // destroys the connection
  | { kind: 'huge'; bytes: number } // 200 application/json, an enormous body
  | { kind: 'redirect'; location: string } // 307 to another address

/**
 * The form service's plan. Web3Forms' API reference: "Server side usage requires paid plan + server
 * IP whitelisting" (https://docs.web3forms.com/getting-started/api-reference). `paid` stands for a
 * paid plan whose allow-list holds the caller.
 */
export type FormServicePlan = 'free' | 'paid'

/** What the free plan answers to a server-side post: 200 with success false (the delivery's `upstream_refused`). */
export const SERVER_SIDE_REFUSED = {
  success: false,
  message: 'Server side submissions are available only on a paid plan, from an allow-listed IP address',
}

/**
 * Web3Forms' rule: the free plan accepts posts from a browser only. A browser's cross-origin post
 * always carries `Origin`; a server's (a Worker's fetch, Node's) carries none. Returns the refusal,
 * or undefined when the post may go on.
 */
export function serverSideRefusal(plan: FormServicePlan, origin: string | null | undefined) {
  return plan === 'free' && !origin ? SERVER_SIDE_REFUSED : undefined
}

export interface ReceivedRequest {
  at: number
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  raw: string
  json: unknown
}

export interface FormService {
  url: string
  port: number
  received: ReceivedRequest[]
  setScenario(email: string, scenario: Scenario): void
  /** What was received from `email`. */
  from(email: string): ReceivedRequest[]
  /** Forgets everything received and every scenario (a test's own start). */
  forget(): void
  close(): Promise<void>
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

export function startFormService(
  port = 0,
  host = '127.0.0.1',
  options: { plan?: FormServicePlan } = {},
): Promise<FormService> {
  const plan = options.plan ?? 'free'
  const scenarios = new Map<string, Scenario>()
  const received: ReceivedRequest[] = []
  const hanging = new Set<ServerResponse>()

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://${host}`)
    const raw = await readBody(req)

    if (url.pathname === '/__health') return sendJson(res, 200, { ok: true })
    if (url.pathname === '/__scenario' && req.method === 'POST') {
      const { email, scenario } = JSON.parse(raw) as { email: string; scenario: Scenario }
      scenarios.set(email.toLowerCase(), scenario)
      return sendJson(res, 200, { ok: true })
    }
    if (url.pathname === '/__requests' && req.method === 'GET') {
      const email = url.searchParams.get('email')?.toLowerCase()
      const list = email
        ? received.filter((r) => String((r.json as { email?: unknown } | null)?.email ?? '').toLowerCase() === email)
        : received
      return sendJson(res, 200, list)
    }
    if (url.pathname === '/__requests' && req.method === 'DELETE') {
      received.length = 0
      scenarios.clear()
      return sendJson(res, 200, { ok: true })
    }

    let json: unknown = null
    try {
      json = JSON.parse(raw)
    } catch {
      json = null
    }
    received.push({ at: Date.now(), method: req.method ?? '', path: url.pathname, headers: req.headers, raw, json })

    const refused = serverSideRefusal(plan, req.headers.origin)
    if (refused) return sendJson(res, 200, refused)
    const email = String((json as { email?: unknown } | null)?.email ?? '').toLowerCase()
    const scenario = scenarios.get(email) ?? { kind: 'success' }
    switch (scenario.kind) {
      case 'success':
        return sendJson(res, 200, { success: true, message: 'Email sent successfully!' })
      case 'failure':
        return sendJson(res, 200, { success: false, message: 'Invalid access key' })
      case 'status':
        res.writeHead(scenario.status, { 'content-type': scenario.body ? 'text/plain' : 'application/json' })
        return res.end(scenario.body ?? JSON.stringify({ success: false, message: `status ${scenario.status}` }))
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html' })
        return res.end('<!doctype html><title>Just a moment...</title><p>Checking your browser</p>')
      case 'truncated':
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end('{"success": tr')
      case 'slow':
        setTimeout(() => sendJson(res, 200, { success: true }), scenario.delayMs)
        return
      case 'hang':
        hanging.add(res)
        res.on('close', () => hanging.delete(res))
        return
      case 'reset':
        req.socket.destroy()
        return
      case 'redirect':
        res.writeHead(307, { location: scenario.location, 'content-type': 'text/plain' })
        return res.end('Moved')
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/json' })
        const chunk = 'x'.repeat(64 * 1024)
        res.write('{"success": true, "padding": "')
        let sent = 0
        const pump = () => {
          while (sent < scenario.bytes) {
            sent += chunk.length
            if (!res.write(chunk)) return void res.once('drain', pump)
          }
          res.end('"}')
        }
        res.on('error', () => {})
        pump()
        return
      }
    }
  })

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      const actual = (server.address() as AddressInfo).port
      resolve({
        url: `http://${host}:${actual}/submit`,
        port: actual,
        received,
        setScenario: (email, scenario) => scenarios.set(email.toLowerCase(), scenario),
        from: (email) =>
          received.filter(
            (r) => String((r.json as { email?: unknown } | null)?.email ?? '').toLowerCase() === email.toLowerCase(),
          ),
        forget: () => {
          received.length = 0
          scenarios.clear()
        },
        close: () =>
          new Promise<void>((done) => {
            for (const res of hanging) res.destroy()
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.FORM_SERVICE_PORT ?? 8799)
  const plan = process.env.FORM_SERVICE_PLAN === 'paid' ? 'paid' : 'free'
  startFormService(port, '127.0.0.1', { plan }).then((service) => {
    console.log(`Stand-in form service listening on ${service.url}`)
  })
}
