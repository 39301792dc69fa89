/**
 * The D1 query endpoint's SQL runner: statements run through Miniflare's D1 binding for the
 * database (see runtime.ts for why), split with wrangler's own splitter (the one its local
 * `d1 execute` uses), as one batch: all or nothing, as D1 runs a multi-statement query.
 */
import type { Miniflare } from 'miniflare'
import { ApiError } from './http.ts'

type Split = (sql: string) => string[]
let splitter: Promise<Split> | undefined

function split(sql: string): Promise<string[]> {
  splitter ??= import('wrangler').then((w) => w.unstable_splitSqlQuery as Split)
  return splitter.then((fn) => fn(sql))
}

interface Statement {
  sql: string
  params: unknown[]
  bind?: (...values: unknown[]) => Statement
  run?: () => Promise<unknown>
}

/** The Worker that runs the API's D1 batches with the account's bindings (one request a batch). */
export const D1_SCRIPT = `export default {
  async fetch(request, env) {
    const { slot, statements } = await request.json()
    const db = env[slot]
    try {
      const results = await db.batch(statements.map((s) => (s.params.length ? db.prepare(s.sql).bind(...s.params) : db.prepare(s.sql))))
      return Response.json({ results })
    } catch (error) {
      return Response.json({ error: (error.cause ?? error).message }, { status: 400 })
    }
  },
}`

/**
 * The part of the D1 binding the stand-in uses (prepare, bind, run, batch), each batch one request to
 * the D1 Worker: not Miniflare's D1 proxy, whose calls block this process's event loop.
 */
export function d1Over(mf: Miniflare, worker: string, slot: string) {
  const send = async (statements: Statement[]): Promise<unknown[]> => {
    const body = JSON.stringify({ slot, statements: statements.map(({ sql, params }) => ({ sql, params })) })
    const answer = await mf.dispatchFetch('http://d1.stand-in/', {
      method: 'POST',
      body,
      headers: { 'MF-Route-Override': worker },
    })
    const json = (await answer.json()) as { results?: unknown[]; error?: string }
    if (json.error !== undefined) throw new Error(json.error)
    return json.results as unknown[]
  }
  const statement = (sql: string, params: unknown[] = []): Statement => ({
    sql,
    params,
    bind: (...values: unknown[]) => statement(sql, values),
    run: async () => (await send([{ sql, params }]))[0],
  })
  return { prepare: (sql: string) => statement(sql), batch: send }
}

export interface QueryResult {
  results: Record<string, unknown>[]
  success: true
  meta: Record<string, unknown>
}

export async function runQuery(db: D1Database, sql: string, params: unknown[] | undefined): Promise<QueryResult[]> {
  const statements = (await split(sql)).filter((s) => s.trim() !== '')
  if (statements.length === 0) throw new ApiError(400, 7500, 'No SQL statements to run')
  if (params && params.length > 0 && statements.length > 1) {
    throw new ApiError(400, 7500, 'Parameters can be given for a single statement only')
  }
  try {
    const prepared = statements.map((s) => (params?.length ? db.prepare(s).bind(...params) : db.prepare(s)))
    const results = (await db.batch(prepared)) as unknown as QueryResult[]
    return results.map((r) => ({ results: r.results ?? [], success: true, meta: r.meta ?? {} }))
  } catch (error) {
    const cause = (error as { cause?: Error }).cause ?? (error as Error)
    throw new ApiError(400, 7500, `${cause.message.replace(/^D1_ERROR: /, '')}: SQLITE_ERROR`)
  }
}
