/** The edge's answer to one request: Access, then what serves the host, proxied to its build in the runtime. */
import { randomBytes } from 'node:crypto'
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AccountHost } from './host.ts'
import { type PreviewDeployment, pick, type Version } from './model.ts'
import type { EdgeRecord } from './types.ts'

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

export async function serveEdge(
  site: AccountHost,
  req: IncomingMessage,
  res: ServerResponse,
  scheme: 'https' | 'http',
): Promise<void> {
  const host = String(req.headers.host ?? '')
    .replace(/:\d+$/, '')
    .toLowerCase()
  const url = `${scheme}://${host}${req.url ?? '/'}`
  const at = new Date().toISOString()
  const method = req.method ?? 'GET'
  const reply = (status: number, headers: Record<string, string>, body: string, servedBy: EdgeRecord['servedBy']) => {
    res.writeHead(status, { server: 'cloudflare', 'cf-ray': `${randomBytes(8).toString('hex')}-SIN`, ...headers })
    res.end(body)
    site.edgeLog.push({ at, method, url, status, servedBy })
  }

  const guarded = site.workerOfHost(host)
  const access = guarded ? site.access.get(guarded) : undefined
  if (access) {
    const id = req.headers['cf-access-client-id']
    const secret = req.headers['cf-access-client-secret']
    if (id !== access.clientId || secret !== access.clientSecret) {
      const login = `https://${access.teamDomain}/cdn-cgi/access/login/${host}?redirect_url=${encodeURIComponent(req.url ?? '/')}`
      return reply(302, { location: login, 'content-type': 'text/html' }, `<a href="${login}">Sign in</a>`, {
        kind: 'none',
        reason: 'Cloudflare Access: no valid service token',
      })
    }
  }

  const route = site.routeHost(host, true)
  if (route.kind === 'none') {
    return reply(
      route.status,
      { 'content-type': 'text/html' },
      `<!doctype html><title>There is nothing here yet</title><p>${route.reason}</p>`,
      { kind: 'none', reason: route.reason },
    )
  }
  const build: Version | PreviewDeployment = route.kind === 'version' ? pick(route.choices) : route.deployment
  const servedBy = { kind: build.kind, id: build.id, worker: route.worker.name } as const
  if (site.isBroken(build, new URL(url).pathname)) {
    return reply(
      500,
      { 'content-type': 'text/plain' },
      'This version fails on purpose (stand-in control.breakVersions).',
      servedBy,
    )
  }

  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name.startsWith('cf-access-client-')) continue
    headers[name] = value
  }
  headers['cf-connecting-ip'] = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1'
  headers['x-forwarded-proto'] = scheme
  try {
    await site.runtime.withWorker(
      site.runTarget(build),
      (endpoint, [envHeader, envValue]) =>
        new Promise<void>((resolve) => {
          const upstream = httpRequest(
            {
              host: endpoint.hostname,
              port: endpoint.port,
              method,
              path: url,
              headers: { ...headers, [envHeader]: envValue },
            },
            (answer) => {
              const out = { ...answer.headers }
              delete out.connection
              delete out['keep-alive']
              res.writeHead(answer.statusCode ?? 502, { server: 'cloudflare', ...out })
              answer.pipe(res)
              answer.on('end', () => {
                site.edgeLog.push({ at, method, url, status: answer.statusCode ?? 502, servedBy })
                resolve()
              })
              answer.on('error', () => resolve())
            },
          )
          upstream.on('error', (error) => {
            if (!res.headersSent)
              reply(502, { 'content-type': 'text/plain' }, `stand-in edge: ${error.message}`, servedBy)
            else res.destroy()
            resolve()
          })
          res.on('close', () => resolve())
          req.pipe(upstream)
        }),
    )
  } catch (error) {
    if (!res.headersSent)
      reply(500, { 'content-type': 'text/plain' }, `stand-in edge: ${(error as Error).message}`, servedBy)
  }
}
