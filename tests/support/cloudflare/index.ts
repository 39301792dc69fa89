/**
 * A client of the stand-in Cloudflare (cloud.ts), for running the project's own wrangler (and the
 * scripts around it) offline. See README.md in this folder for what it serves and what it guesses.
 *
 *   const cf = await connectCloudflare(standin.cloudflare, { zones: [...] })  // an account of the shared stand-in
 *   const run = await runWrangler(cf, ['deploy'], { cwd })                     // the pinned wrangler, as a child process
 *   (await cf.state.worker('akshara-labs-site')).deployment                    // what an operator would check
 *   await cf.fetch('https://akshara-labs-site.stand-in.workers.dev/api/health')
 *   await cf.assertNoUnknownRequests()
 *   await cf.stop()
 *
 * `startCloudflare(options)` does the same with a stand-in of its own, inside this process.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { connect as netConnect } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { type AccountInfo, type Cloud, OUTBOUND_URL_HEADER, startCloud } from './cloud.ts'
import { readBody } from './http.ts'
import {
  type AccountOptions,
  type Cloudflare,
  type EdgeResponse,
  type StandinControl,
  type StandinState,
  toWire,
  type UnknownRequest,
} from './types.ts'

export type * from './types.ts'

/** Where the shared stand-in listens (what server.ts prints). */
export interface StandinAddress {
  /** The API's origin, e.g. http://127.0.0.1:41234 (its control door is /__standin/…). */
  cloudflare: string
}

async function call<T>(base: string, path: string, method: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await answer.json()) as { result?: T; error?: string }
  if (!answer.ok) throw new Error(`stand-in ${path}: ${json.error ?? answer.status}`)
  return ('result' in json ? json.result : json) as T
}

/** A served Worker's outbound fetches, answered in this process by `handler` (control.setOutbound). */
function outboundServer(handler: (request: Request) => Response | Promise<Response>): Promise<Server> {
  const server = createServer(async (req: IncomingMessage, res) => {
    try {
      const url = String(req.headers[OUTBOUND_URL_HEADER] ?? '')
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined || name === OUTBOUND_URL_HEADER || name === 'host' || name === 'connection') continue
        headers.set(name, Array.isArray(value) ? value.join(', ') : value)
      }
      const body = await readBody(req)
      const request = new Request(url, {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(body),
      })
      const response = await handler(request)
      const out: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        out[name] = value
      })
      res.writeHead(response.status, out)
      res.end(Buffer.from(await response.arrayBuffer()))
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`outbound handler failed: ${(error as Error).message}`)
    }
  })
  server.keepAliveTimeout = 0
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/** An account of a running stand-in, at `address`, made with `options`. */
export async function connectCloudflare(
  address: StandinAddress,
  options: AccountOptions = {},
  onStop?: () => Promise<void>,
): Promise<Cloudflare> {
  const base = address.cloudflare
  const info = await call<AccountInfo>(base, '/__standin/accounts', 'POST', options)
  const invoke = <T>(method: string, ...args: unknown[]) =>
    call<T>(base, `/__standin/accounts/${info.accountId}/call`, 'POST', { method, args })
  let outbound: Server | undefined

  // Every state call and most controls go as they are; a RegExp travels as { source, flags }.
  const forward = <T extends object>(prefix: string, own: Partial<T> = {}) =>
    new Proxy(own as T, {
      get: (target, name) =>
        typeof name === 'symbol' || name === 'then'
          ? undefined
          : ((target as Record<string, unknown>)[name] ??
            (async (...args: unknown[]) => (await invoke(`${prefix}.${name}`, ...args)) ?? undefined)),
    })
  const state = forward<StandinState>('state')
  const control = forward<StandinControl>('control', {
    breakVersions: (rule) =>
      invoke('control.breakVersions', {
        ...rule,
        message: rule.message === undefined ? undefined : toWire(rule.message),
        paths: rule.paths === undefined ? undefined : toWire(rule.paths),
      }),
    async setOutbound(handler) {
      if (outbound) await new Promise((resolve) => outbound?.close(resolve))
      outbound = handler ? await outboundServer(handler) : undefined
      const url = outbound ? `http://127.0.0.1:${(outbound.address() as AddressInfo).port}/` : null
      await invoke('control.setOutbound', url)
    },
    failNext: (method, path, fault) => invoke('control.failNext', method, toWire(path), fault ?? {}),
  })
  const unknownRequests = () => invoke<UnknownRequest[]>('unknownRequests')
  const describe = (u: UnknownRequest) => `${u.kind} ${u.method} ${u.path}${u.detail ? ` (${u.detail})` : ''}`
  const proxyPort = Number(new URL(info.proxyUrl).port)

  return {
    env: info.env,
    apiUrl: info.apiUrl,
    accountId: info.accountId,
    tokens: info.tokens,
    proxyUrl: info.proxyUrl,
    caFile: info.caFile,
    subdomain: info.subdomain,
    workersDevUrl: (name) => `https://${name}.${info.subdomain}.workers.dev`,
    state,
    control,
    fetch: (url, init) => edgeFetch(proxyPort, info.caPem, url, init),
    unknownRequests,
    async assertNoUnknownRequests() {
      const unknown = await unknownRequests()
      if (unknown.length > 0) {
        throw new Error(`The stand-in Cloudflare got requests it does not serve:\n${unknown.map(describe).join('\n')}`)
      }
    },
    async stop() {
      if (outbound) await new Promise((resolve) => outbound?.close(resolve))
      await call(base, `/__standin/accounts/${info.accountId}`, 'DELETE')
      await onStop?.()
    },
  }
}

/** A stand-in of its own, inside this process, with one account. */
export async function startCloudflare(options: AccountOptions = {}): Promise<Cloudflare> {
  const cloud: Cloud = await startCloud()
  return connectCloudflare({ cloudflare: cloud.apiBase }, options, () => cloud.stop())
}

/** An HTTPS (or HTTP) request through the edge proxy, trusting only the stand-in's CA. */
function edgeFetch(
  proxyPort: number,
  ca: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<EdgeResponse> {
  const target = new URL(url)
  const finish = (res: IncomingMessage, resolve: (r: EdgeResponse) => void) => {
    const chunks: Buffer[] = []
    res.on('data', (c: Buffer) => chunks.push(c))
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T })
    })
  }
  if (target.protocol === 'http:') {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: proxyPort,
          method: init.method ?? 'GET',
          path: url,
          headers: { host: target.host, ...init.headers },
        },
        (res) => finish(res, resolve),
      )
      req.on('error', reject)
      req.end(init.body)
    })
  }
  return new Promise((resolve, reject) => {
    const socket = netConnect(proxyPort, '127.0.0.1', () => {
      socket.write(`CONNECT ${target.hostname}:443 HTTP/1.1\r\nHost: ${target.hostname}:443\r\n\r\n`)
    })
    socket.once('error', reject)
    let head = ''
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1')
      if (!head.includes('\r\n\r\n')) return
      socket.off('data', onData)
      if (!/^HTTP\/1\.1 200/.test(head)) {
        socket.destroy()
        return reject(new Error(`The edge refused CONNECT ${target.hostname}: ${head.split('\r\n')[0]}`))
      }
      const tls = tlsConnect({ socket, servername: target.hostname, ca })
      tls.once('error', reject)
      const req = httpsRequest(
        {
          host: target.hostname,
          method: init.method ?? 'GET',
          path: target.pathname + target.search,
          headers: init.headers,
          // No agent: the request goes over this TLS socket (no DNS lookup of the host).
          createConnection: () => tls,
        },
        (res) => finish(res, resolve),
      )
      req.on('error', reject)
      req.end(init.body)
    }
    socket.on('data', onData)
  })
}

// Run alone (`npx node tests/support/cloudflare/index.ts`): starts a stand-in with one account and
// prints the variables to export in a shell, so the project's commands can be tried by hand against it.
if (import.meta.main) {
  const cf = await startCloudflare({ zones: [{ name: 'aksharalabs.in' }] })
  for (const [name, value] of Object.entries(cf.env)) console.log(`export ${name}='${value}'`)
  console.log(`# Stand-in Cloudflare account ${cf.accountId}; Ctrl-C stops it.`)
  const stop = () => {
    cf.stop().finally(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
