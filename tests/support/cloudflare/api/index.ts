/**
 * The stand-in's REST API (`/client/v4/…`): the calls wrangler 4.151 makes for the commands in
 * README.md, with the shapes its code reads, one module a part of the platform. Anything else
 * answers 404 (code 7003, as Cloudflare does for a path it cannot route) and is recorded as unknown.
 */
import './account.ts'
import './workers.ts'
import './secrets.ts'
import './domains.ts'
import './previews.ts'
import './d1.ts'
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError, envelope, errorEnvelope, readBody, sendJson } from '../http.ts'
import type { Account, TokenScope } from '../model.ts'
import { A, type ApiContext, type ApiRequestRecord, type Result, routes } from './routes.ts'

export type { ApiContext, ApiRequestRecord }

const ACCOUNT_PATH = /^\/client\/v4\/accounts\/[^/]+(\/.*)?$/

/**
 * Why a token may not make this call, or undefined. Workers calls need the Worker in the token's
 * scope (creating one needs Workers Admin for the product); D1 calls the database; custom domains
 * the zone permissions. Rules from https://developers.cloudflare.com/workers/authorization/workers/
 * (per-Worker roles cannot create Workers; routes and custom domains need zone permissions).
 */
function refusal(account: Account, scope: TokenScope, method: string, pathname: string): string | undefined {
  const rest = ACCOUNT_PATH.exec(pathname)?.[1] ?? ''
  const inScope = (list: '*' | string[], name: string) => list === '*' || list.includes(name)
  if (/\/domains\//.test(rest) && !scope.zones) return 'has no zone permissions (custom domains)'
  const workerName = /^\/workers\/(?:scripts|workers|services)\/([^/]+)/.exec(rest)?.[1]
  if (workerName) {
    const name = decodeURIComponent(workerName)
    const creates = method === 'PUT' && rest === `/workers/scripts/${workerName}` && !account.workers.has(name)
    if (creates && !scope.createWorkers) return `may not create the Worker ${name}`
    if (!inScope(scope.workers, name)) return `may not use the Worker ${name}`
    return undefined
  }
  if (method === 'POST' && rest === '/d1/database')
    return scope.createDatabases ? undefined : 'may not create databases'
  const database = /^\/d1\/database\/([^/]+)/.exec(rest)?.[1]
  if (database) {
    const id = decodeURIComponent(database)
    const name = account.d1.get(id)?.name ?? [...account.d1.values()].find((d) => d.name === id)?.name ?? id
    if (!inScope(scope.databases, name)) return `may not use the database ${name}`
  }
  return undefined
}

export async function handleApi(req: IncomingMessage, res: ServerResponse, ctx: ApiContext): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://stand-in')
  const method = req.method ?? 'GET'
  const at = new Date().toISOString()
  const body = await readBody(req)

  // The D1 import's upload URL (stands for the presigned R2 URL; no Cloudflare token on it).
  const upload = url.pathname.match(/^\/__standin\/d1-upload\/([^/]+)$/)
  if (upload && method === 'PUT') {
    const entry = ctx.account.d1Uploads.get(upload[1] ?? '')
    if (!entry) return sendJson(res, 404, { error: 'unknown upload' })
    entry.content = body
    const etag = createHash('md5').update(body).digest('hex')
    res.writeHead(200, { etag: `"${etag}"` })
    res.end()
    ctx.record({ at, method, path: url.pathname, status: 200 })
    return
  }

  const finish = (
    status: number,
    payload: unknown,
    extra: Partial<ApiRequestRecord> = {},
    headers: Record<string, string> = {},
  ) => {
    sendJson(res, status, payload, headers)
    ctx.record({ at, method, path: url.pathname + url.search, status, ...extra })
  }

  const matched = routes
    .map((r) => ({ r, m: r.method === method ? url.pathname.match(r.pattern) : null }))
    .find((x) => x.m)
  if (!matched?.m) {
    const message = `The stand-in Cloudflare API does not serve ${method} ${url.pathname}`
    return finish(404, errorEnvelope(new ApiError(404, 7003, `Could not route to ${url.pathname}: ${message}`)), {
      unknown: true,
      error: message,
    })
  }

  const auth = String(req.headers.authorization ?? '')
  const isAssetUpload = url.pathname.endsWith('/workers/assets/upload')
  const scope = ctx.tokens.get(auth.replace(/^Bearer /, ''))
  if (!isAssetUpload && !scope) {
    return finish(400, errorEnvelope(new ApiError(400, 10000, 'Authentication error')), {
      error: 'bad or missing token',
    })
  }
  const accountInPath = url.pathname.match(/^\/client\/v4\/accounts\/([^/]+)/)?.[1]
  if (accountInPath && accountInPath !== ctx.account.options.accountId) {
    return finish(403, errorEnvelope(new ApiError(403, 9109, 'Unauthorized to access requested resource')), {
      error: `unknown account ${accountInPath}`,
    })
  }
  const token = scope?.name
  const refused = scope && refusal(ctx.account, scope, method, url.pathname)
  if (refused) {
    // Cloudflare answers a token without the permission with 403 and code 10000.
    return finish(403, errorEnvelope(new ApiError(403, 10000, 'Authentication error')), {
      error: `token "${token}" ${refused}`,
      token,
    })
  }
  const fault = ctx.takeFault(method, url.pathname)
  if (fault) {
    return finish(
      fault.status,
      errorEnvelope(new ApiError(fault.status, fault.code, fault.message)),
      { error: `injected: ${fault.message}`, token },
      fault.retryAfter > 0 ? { 'Retry-After': String(fault.retryAfter) } : {},
    )
  }

  try {
    // Path parameters after the account id (which every /accounts/… route checks above).
    const params = [...matched.m].slice(matched.r.path.startsWith(A) ? 2 : 1)
    const outcome = await matched.r.handler({ req, url, params, body, ctx, scope: scope as TokenScope })
    if (outcome && typeof outcome === 'object' && 'body' in outcome && 'status' in outcome) {
      const result = outcome as Result
      return finish(result.status ?? 200, result.raw ? result.body : envelope(result.body), { token })
    }
    return finish(200, envelope(outcome ?? null), { token })
  } catch (error) {
    if (error instanceof ApiError) {
      // 7003 ("could not route"): a call inside a served path that the stand-in does not know either.
      return finish(error.status, errorEnvelope(error), {
        error: error.message,
        token,
        ...(error.code === 7003 ? { unknown: true } : {}),
      })
    }
    const message = (error as Error).stack ?? String(error)
    return finish(500, errorEnvelope(new ApiError(500, 10013, `Stand-in failure: ${message}`)), {
      error: message,
      token,
    })
  }
}
