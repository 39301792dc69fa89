/**
 * The D1 query endpoint's SQL runner: statements run through Miniflare's D1 binding for the
 * database (see runtime.ts for why), split with wrangler's own splitter (the one its local
 * `d1 execute` uses), as one batch: all or nothing, as D1 runs a multi-statement query.
 */
import { ApiError } from './http.ts'

type Split = (sql: string) => string[]
let splitter: Promise<Split> | undefined

function split(sql: string): Promise<string[]> {
  splitter ??= import('wrangler').then((w) => w.unstable_splitSqlQuery as Split)
  return splitter.then((fn) => fn(sql))
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
