/**
 * The stand-in's edge: an HTTP proxy on 127.0.0.1 that clients reach through HTTPS_PROXY.
 *
 * - `CONNECT <host>:443` for a host the edge serves (*.workers.dev, the account's custom domains):
 *   TLS is terminated here with a certificate from the stand-in's CA (chosen by SNI), and each
 *   request inside goes to `handle`. A host without a certificate yet fails the TLS handshake.
 * - `CONNECT` to a loopback address: a plain tunnel (for clients that send everything through the
 *   proxy).
 * - Plain `http://` requests: to an edge host, `handle`; to a loopback address, forwarded.
 * - Anything else (the internet) is refused with 502 and reported through `refused`.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect, type Socket } from 'node:net'
import { type SecureContext, TLSSocket } from 'node:tls'

export interface EdgeRouter {
  /** Whether a hostname is served by the edge. */
  serves(hostname: string): boolean
  /** The TLS context for a hostname, or undefined while it has no certificate. */
  secureContext(hostname: string): SecureContext | undefined
  handle(req: IncomingMessage, res: ServerResponse, scheme: 'https' | 'http'): void
  refused(method: string, target: string): void
}

export interface Edge {
  port: number
  url: string
  close(): Promise<void>
}

const isLoopback = (host: string) => ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)

function splitHostPort(target: string, defaultPort: number): [string, number] {
  const match = target.match(/^\[?([^\]]+?)\]?(?::(\d+))?$/)
  return [match?.[1]?.toLowerCase() ?? target, Number(match?.[2] ?? defaultPort)]
}

export function startEdge(router: EdgeRouter): Promise<Edge> {
  const sockets = new Set<Socket>()
  // Requests that arrive inside an intercepted TLS tunnel.
  const inner: Server = createServer((req, res) => router.handle(req, res, 'https'))
  inner.on('clientError', (_error, socket) => socket.destroy())
  // Idle keep-alive connections are the client's to close (see the API server in index.ts).
  inner.keepAliveTimeout = 0

  const proxy = createServer((req, res) => {
    const target = req.url ?? '/'
    if (!/^https?:\/\//.test(target)) {
      // Sent to the proxy as if it were the server: route by Host.
      return router.handle(req, res, 'http')
    }
    const url = new URL(target)
    const [host] = splitHostPort(url.host, 80)
    if (router.serves(host)) {
      req.url = url.pathname + url.search
      req.headers.host = url.host
      return router.handle(req, res, 'http')
    }
    if (isLoopback(host)) {
      const upstream = httpRequest(
        {
          host: url.hostname,
          port: url.port || 80,
          path: url.pathname + url.search,
          method: req.method,
          headers: req.headers,
        },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers)
          upstreamRes.pipe(res)
        },
      )
      upstream.on('error', (error) => {
        res.writeHead(502, { 'content-type': 'text/plain' })
        res.end(`stand-in edge: ${error.message}`)
      })
      req.pipe(upstream)
      return
    }
    router.refused(req.method ?? 'GET', target)
    res.writeHead(502, { 'content-type': 'text/plain' })
    res.end(`The stand-in edge does not reach ${url.host}: tests run offline.`)
  })

  proxy.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    const [host, port] = splitHostPort(req.url ?? '', 443)
    if (router.serves(host) && port === 443) {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) socket.unshift(head)
      const tlsSocket = new TLSSocket(socket, {
        isServer: true,
        SNICallback: (servername, done) => {
          const context = router.secureContext(servername.toLowerCase())
          if (context) done(null, context)
          else done(new Error(`no certificate for ${servername} yet`), null as unknown as SecureContext)
        },
      })
      tlsSocket.on('error', () => socket.destroy())
      inner.emit('connection', tlsSocket)
      return
    }
    if (isLoopback(host)) {
      const upstream = connect(port, host === 'localhost' ? '127.0.0.1' : host.replace(/^\[|\]$/g, ''), () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        if (head.length > 0) upstream.write(head)
        upstream.pipe(socket)
        socket.pipe(upstream)
      })
      upstream.on('error', () => socket.destroy())
      socket.on('close', () => upstream.destroy())
      return
    }
    router.refused('CONNECT', req.url ?? '')
    socket.end(
      'HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\nThe stand-in edge does not reach this host: tests run offline.',
    )
  })

  return new Promise((resolve, reject) => {
    proxy.once('error', reject)
    proxy.keepAliveTimeout = 0
    proxy.listen(0, '127.0.0.1', () => {
      const { port } = proxy.address() as AddressInfo
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy()
            proxy.closeAllConnections()
            inner.closeAllConnections()
            proxy.close(() => done())
          }),
      })
    })
  })
}
