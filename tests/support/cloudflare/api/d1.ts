/** D1: databases, queries, imports (`d1 execute --file`) and Time Travel. */
import { randomUUID } from 'node:crypto'
import { runQuery } from '../d1.ts'
import { ApiError, parseJson } from '../http.ts'
import type { DatabaseState } from '../model.ts'
import { databaseJson } from './json.ts'
import { A, type ApiContext, paged, route } from './routes.ts'

route('POST', `${A}/d1/database`, ({ ctx, body }) => {
  const request = parseJson<{ name: string; jurisdiction?: string }>(body)
  const name = String(request.name ?? '')
  if (!/^[a-z0-9][a-z0-9-_]*$/i.test(name)) throw new ApiError(400, 7400, `Invalid database name "${name}"`)
  if ([...ctx.account.d1.values()].some((d) => d.name === name)) {
    throw new ApiError(400, 7502, `A database with that name already exists: ${name}`)
  }
  const db = { uuid: randomUUID(), name, createdAt: new Date().toISOString(), jurisdiction: request.jurisdiction }
  ctx.account.d1.set(db.uuid, db)
  return databaseJson(db)
})

route('GET', `${A}/d1/database`, ({ ctx, url, scope }) => {
  const name = url.searchParams.get('name')
  // Guess: a token scoped to some databases lists only those.
  const all = [...ctx.account.d1.values()].filter(
    (d) => (!name || d.name === name) && (scope.databases === '*' || scope.databases.includes(d.name)),
  )
  return paged(ctx, url, all.map(databaseJson))
})

route('GET', `${A}/d1/database/:db`, async ({ ctx, params }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  const tables = await ctx.withD1(db.uuid, (d1) =>
    d1
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'")
      .run<{ n: number }>(),
  )
  return {
    ...databaseJson(db),
    num_tables: tables.results[0]?.n ?? 0,
    file_size: Number((tables.meta as { size_after?: number }).size_after ?? 0),
  }
})

route('POST', `${A}/d1/database/:db/query`, async ({ ctx, params, body }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  const request = parseJson<{ sql?: string; params?: unknown[] }>(body)
  if (!request.sql) throw new ApiError(400, 7400, 'A query needs sql')
  return ctx.withD1(db.uuid, (d1) => runQuery(d1, request.sql as string, request.params))
})

// D1 Time Travel (https://developers.cloudflare.com/d1/reference/time-travel/), as wrangler 4.151's
// `d1 time-travel info` and `restore` call it: a bookmark names the database's state at a time, and
// a restore puts that state back, answering the bookmark it replaced (`previous_bookmark`).
route('GET', `${A}/d1/database/:db/time_travel/bookmark`, async ({ ctx, params, url }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  if (url.searchParams.has('timestamp')) throw new ApiError(404, 7003, 'The stand-in serves no bookmark by timestamp')
  return { bookmark: await takeBookmark(ctx, db.uuid) }
})

route('POST', `${A}/d1/database/:db/time_travel/restore`, async ({ ctx, params, url }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  const bookmark = url.searchParams.get('bookmark') ?? ''
  const state = ctx.account.bookmarks.get(bookmark)
  if (!state || state.databaseId !== db.uuid)
    throw new ApiError(400, 7400, `Unknown bookmark ${bookmark} for ${db.name}`)
  const previous = await takeBookmark(ctx, db.uuid)
  await ctx.withD1(db.uuid, async (d1) => {
    const now = await readState(d1)
    const drops = [...now.schema]
      .reverse()
      .filter((o) => o.type === 'table' || o.type === 'view')
      .map((o) => d1.prepare(`DROP ${o.type.toUpperCase()} IF EXISTS "${o.name}"`))
    const tables = state.schema.filter((o) => o.type === 'table')
    const rest = state.schema.filter((o) => o.type !== 'table')
    const inserts = Object.entries(state.rows).flatMap(([table, rows]) =>
      rows.map((row) => {
        const columns = Object.keys(row)
        return d1
          .prepare(
            `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          )
          .bind(...columns.map((c) => row[c]))
      }),
    )
    await d1.batch([
      d1.prepare('PRAGMA defer_foreign_keys = true'),
      ...drops,
      ...tables.map((o) => d1.prepare(o.sql)),
      ...inserts,
      ...rest.map((o) => d1.prepare(o.sql)),
    ])
  })
  return { bookmark, previous_bookmark: previous, message: `Database ${db.name} restored to ${bookmark}` }
})

/** The database's state now, kept under a new bookmark (D1's shape: four hex groups and a hash). */
async function takeBookmark(ctx: ApiContext, databaseId: string): Promise<string> {
  const state = await ctx.withD1(databaseId, readState)
  const n = ctx.account.bookmarks.size + 1
  const hex = (value: number, width: number) => value.toString(16).padStart(width, '0')
  const bookmark = `${hex(n, 8)}-${hex(n, 8)}-${hex(Date.now() % 0xffffffff, 8)}-${randomUUID().replaceAll('-', '')}`
  ctx.account.bookmarks.set(bookmark, { ...state, databaseId, at: new Date().toISOString() })
  return bookmark
}

/** Every table (and its rows), index, trigger and view of a database, D1's own and SQLite's aside. */
async function readState(d1: D1Database): Promise<Omit<DatabaseState, 'databaseId' | 'at'>> {
  const { results } = await d1
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY rowid",
    )
    .run<{ type: string; name: string; sql: string }>()
  const rows: DatabaseState['rows'] = {}
  for (const table of results.filter((o) => o.type === 'table')) {
    rows[table.name] = (await d1.prepare(`SELECT * FROM "${table.name}"`).run<Record<string, unknown>>()).results
  }
  return { schema: results, rows }
}

// `d1 execute --remote --file`: init → upload to the returned URL → ingest → poll.
route('POST', `${A}/d1/database/:db/import`, async ({ ctx, params, body }) => {
  const db = ctx.account.database(decodeURIComponent(params[0] ?? ''))
  const request = parseJson<{ action: string; etag?: string; filename?: string; current_bookmark?: string }>(body)
  if (request.action === 'init') {
    const filename = `${db.uuid}-${request.etag}.sql`
    ctx.account.d1Uploads.set(filename, { etag: String(request.etag), databaseId: db.uuid })
    // The real API answers a presigned R2 URL; the stand-in takes the PUT itself.
    return { success: true, upload_url: `${ctx.baseUrl()}/__standin/d1-upload/${filename}`, filename }
  }
  if (request.action === 'ingest') {
    const upload = ctx.account.d1Uploads.get(String(request.filename))
    if (!upload?.content) throw new ApiError(400, 7500, `Nothing was uploaded as ${request.filename}`)
    const started = Date.now()
    const sql = upload.content.toString('utf8')
    const results = await ctx.withD1(db.uuid, (d1) => runQuery(d1, sql, undefined))
    const meta = results.reduce(
      (sum, r) => ({
        rows_read: sum.rows_read + Number(r.meta.rows_read ?? 0),
        rows_written: sum.rows_written + Number(r.meta.rows_written ?? 0),
      }),
      { rows_read: 0, rows_written: 0 },
    )
    return {
      success: true,
      type: 'import',
      status: 'complete',
      at_bookmark: randomUUID(),
      messages: [`Processed ${results.length} queries.`],
      errors: [],
      result: {
        num_queries: results.length,
        final_bookmark: randomUUID(),
        meta: { ...meta, duration: Date.now() - started, size_after: upload.content.length, changed_db: true },
      },
    }
  }
  throw new ApiError(400, 7400, `The stand-in does not serve the import action "${request.action}"`)
})
