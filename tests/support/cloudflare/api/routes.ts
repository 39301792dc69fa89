/** The API's route table and what every handler shares: the call, its result, paging, uploads. */
import type { IncomingMessage } from 'node:http'
import { ApiError, envelope, parseMultipart } from '../http.ts'
import type { Account, PreviewDeployment, StoredModule, TokenScope, Version, Worker } from '../model.ts'

export interface ApiRequestRecord {
  at: string
  method: string
  path: string
  status: number
  /** Which of the account's tokens made the call (its scope's name). */
  token?: string
  /** Set when the stand-in does not serve the path. */
  unknown?: boolean
  error?: string
}

export interface ApiContext {
  account: Account
  tokens: Map<string, TokenScope>
  /** Runs `work` with the D1 binding of a database (Miniflare's, the one the served Workers use). */
  withD1<T>(id: string, work: (db: D1Database) => Promise<T>): Promise<T>
  /** A build now serves somewhere: start it ahead of its first request. */
  warm(build: Version | PreviewDeployment): void
  /** Base of this server's own URLs (for the D1 import upload URL). */
  baseUrl(): string
  takeFault(
    method: string,
    path: string,
  ): { status: number; code: number; message: string; retryAfter: number } | undefined
  record(entry: ApiRequestRecord): void
}

export interface Call {
  req: IncomingMessage
  url: URL
  params: string[]
  body: Buffer
  ctx: ApiContext
  /** What the calling token may do. */
  scope: TokenScope
}

export type Result = { status?: number; body: unknown; raw?: true; headers?: Record<string, string> }
type Handler = (call: Call) => Promise<unknown | Result> | unknown | Result

export const routes: { method: string; path: string; pattern: RegExp; handler: Handler }[] = []
export function route(method: string, path: string, handler: Handler) {
  const pattern = new RegExp(`^${path.replace(/:[a-z_]+/g, '([^/]+)')}$`)
  routes.push({ method, path, pattern, handler })
}
export const A = '/client/v4/accounts/:account'

export const ok = (body: unknown, status = 200): Result => ({ status, body })

export function worker(ctx: ApiContext, name: string | undefined): Worker {
  return ctx.account.worker(decodeURIComponent(name ?? ''))
}

/**
 * One page of a list, with `result_info`. `per_page` defaults to the account's pageSize (the drills
 * make it small). Guess: a client that names neither `page` nor `per_page` (wrangler 4.151's
 * versions list and Previews) gets the whole list as one page.
 */
export function paged<T>(
  ctx: ApiContext,
  url: URL,
  all: T[],
  wrap: (items: T[]) => unknown = (items) => items,
): Result {
  const asked = url.searchParams.has('page') || url.searchParams.has('per_page')
  const perPage = asked
    ? Number(url.searchParams.get('per_page') ?? ctx.account.options.pageSize)
    : Math.max(all.length, 1)
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1))
  if (!Number.isInteger(perPage) || perPage < 1 || !Number.isInteger(page))
    throw new ApiError(400, 10023, 'page and per_page must be positive integers')
  const items = all.slice((page - 1) * perPage, page * perPage)
  const info = {
    page,
    per_page: perPage,
    count: items.length,
    total_count: all.length,
    total_pages: Math.max(1, Math.ceil(all.length / perPage)),
  }
  return { status: 200, body: envelope(wrap(items), info), raw: true }
}

/** A multipart upload: its `metadata` part and its modules (every other file part, or only those named `filesPart`). */
export async function readUpload(req: IncomingMessage, body: Buffer, filesPart?: string) {
  const form = await parseMultipart(req, body)
  const metadataPart = form.get('metadata')
  if (metadataPart === null && !filesPart) throw new ApiError(400, 10021, 'The upload has no metadata part')
  const text =
    metadataPart === null ? '{}' : typeof metadataPart === 'string' ? metadataPart : await metadataPart.text()
  const modules: StoredModule[] = []
  const parts = filesPart ? form.getAll(filesPart).map((v) => [filesPart, v] as const) : [...form.entries()]
  for (const [name, value] of parts) {
    if (name === 'metadata' || typeof value === 'string') continue
    const moduleName = filesPart ? value.name : name
    modules.push({ name: moduleName, contentType: value.type, content: new Uint8Array(await value.arrayBuffer()) })
  }
  return { metadata: JSON.parse(text) as Record<string, unknown>, modules }
}
