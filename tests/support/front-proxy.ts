/**
 * A proxy on 127.0.0.1 in front of a local site, for the engine smoke suite (tests/engines/). It
 * forwards every request as it came (method, path, headers, the browser's own Host, body) and
 * hands the site's answer back untouched (status, headers, redirects, body), with two options:
 *
 * - `headers`: set on every request. With the operator's token as `Cf-Access-Jwt-Assertion` it
 *   stands in for Cloudflare Access, which adds that header in front of the real site after a
 *   sign-in (a person testing locally uses a header-editing extension, docs/desk.md). The site
 *   still checks the token itself.
 * - `slow`: answers to paths that match are held back for a while, as on a slow network.
 */
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FrontProxyOptions {
  headers?: Record<string, string>
  slow?: { path: RegExp; ms: number }[]
}

export interface FrontProxy {
  /** Where a browser opens the site through the proxy, e.g. `http://localhost:12002`. */
  origin: string
  /** The paths whose answers were held back so far. */
  held(): string[]
  close(): Promise<void>
}

/** Forwards `http://localhost:<port>` (0: any free port) to `target`, an origin. */
export function startFrontProxy(port: number, target: string, options: FrontProxyOptions = {}): Promise<FrontProxy> {
  const upstream = new URL(target)
  const extra = Object.fromEntries(
    Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  )
  const held: string[] = []
  const server: Server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/'
    const delay = options.slow?.find((rule) => rule.path.test(path))?.ms ?? 0
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path,
        headers: { ...incoming.headers, ...extra },
      },
      (answer) => {
        const pass = () => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
          answer.pipe(outgoing)
        }
        if (delay > 0) {
          held.push(path)
          setTimeout(pass, delay)
        } else pass()
      },
    )
    forwarded.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' })
      outgoing.end(`The proxy could not reach ${target}: ${error.message}`)
    })
    // The browser may give up on an answer it no longer wants (a page it left).
    outgoing.on('error', () => undefined)
    incoming.pipe(forwarded)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      const actual = (server.address() as AddressInfo).port
      resolve({
        origin: `http://localhost:${actual}`,
        held: () => [...held],
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}
