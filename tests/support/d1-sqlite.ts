/**
 * A D1 database for unit tests on Node's in-memory SQLite, `migrations/` applied, foreign keys on,
 * with D1's behaviour: `prepare` never throws (the call that runs it rejects); `bind` takes `?1` or `?`
 * and refuses `undefined`; `first`, `all`, `run`, `raw`, `batch` (one transaction) and `exec` answer on a
 * microtask. Faults: `failNext`, `broken`, `hang`; `executed` lists the SQL run; `query` and `row` read the tables.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { DatabaseSync, type SQLInputValue } from 'node:sqlite'

const MIGRATIONS = new URL('../../migrations/', import.meta.url)

type Row = Record<string, unknown>

export interface SqliteD1 {
  db: D1Database
  sqlite: DatabaseSync
  broken: boolean
  hang: boolean
  failNext(error?: Error, when?: RegExp): void
  executed: string[]
  query<T = Row>(sql: string, ...params: SQLInputValue[]): T[]
  row<T = Row>(sql: string, ...params: SQLInputValue[]): T | undefined
  close(): void
}

function d1Error(message: string): Error {
  return new Error(`D1_ERROR: ${message}`)
}

function toSqlValue(value: unknown, index: number): SQLInputValue {
  if (value === undefined) throw new Error(`D1_TYPE_ERROR: Type 'undefined' not supported for value at index ${index}`)
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value === null || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string')
    return value
  if (value instanceof ArrayBuffer) return new Uint8Array(value)
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  throw new Error(`D1_TYPE_ERROR: Type '${typeof value}' not supported for value at index ${index}`)
}

/** Plain objects, as D1 returns them (node:sqlite rows have a null prototype). */
const plain = (rows: unknown[]): Row[] => rows.map((row) => ({ ...(row as Row) }))

export function sqliteD1(): SqliteD1 {
  const sqlite = new DatabaseSync(':memory:')
  sqlite.exec('PRAGMA foreign_keys = ON')
  const files = readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith('.sql'))
    .sort()
  for (const file of files) sqlite.exec(readFileSync(new URL(file, MIGRATIONS), 'utf8'))

  const faults: { error: Error; when?: RegExp }[] = []
  const state: SqliteD1 = {
    db: undefined as unknown as D1Database,
    sqlite,
    broken: false,
    hang: false,
    executed: [],
    failNext(error = d1Error('injected failure'), when) {
      faults.push({ error, when })
    },
    query<T>(sql: string, ...params: SQLInputValue[]) {
      return plain(sqlite.prepare(sql).all(...params)) as T[]
    },
    row<T>(sql: string, ...params: SQLInputValue[]) {
      return state.query<T>(sql, ...params)[0]
    },
    close() {
      sqlite.close()
    },
  }

  /** Runs `work` as a D1 call: asynchronously, unless a fault says otherwise. */
  function call<T>(sqls: string[], work: () => T): Promise<T> {
    if (state.hang) return new Promise<T>(() => {})
    return Promise.resolve().then(() => {
      if (state.broken) throw d1Error('database unavailable')
      const fault = faults.findIndex((f) => !f.when || sqls.some((sql) => f.when?.test(sql)))
      if (fault >= 0) {
        const [{ error }] = faults.splice(fault, 1) as [{ error: Error }]
        throw error
      }
      state.executed.push(...sqls)
      return work()
    })
  }

  function execute(sql: string, params: SQLInputValue[]): { rows: Row[]; changes: number; lastRowId: number } {
    const statement = sqlite.prepare(sql)
    if (statement.columns().length > 0) {
      // A query, or a write with RETURNING: every row, as D1 reads them all.
      const rows = plain(statement.all(...params))
      const changes = Number((sqlite.prepare('SELECT changes() AS n').get() as { n: number }).n)
      return { rows, changes: /^\s*select\b/i.test(sql) ? 0 : changes, lastRowId: 0 }
    }
    const result = statement.run(...params)
    return { rows: [], changes: Number(result.changes), lastRowId: Number(result.lastInsertRowid) }
  }

  function result(outcome: { rows: Row[]; changes: number; lastRowId: number }) {
    return {
      success: true as const,
      results: outcome.rows,
      meta: {
        changes: outcome.changes,
        last_row_id: outcome.lastRowId,
        changed_db: outcome.changes > 0,
        duration: 0,
        rows_read: outcome.rows.length,
        rows_written: outcome.changes,
        size_after: 0,
        served_by: 'sqlite-d1 (tests)',
      },
    }
  }

  class Statement {
    constructor(
      readonly sql: string,
      readonly params: SQLInputValue[] = [],
    ) {}

    bind(...values: unknown[]): Statement {
      return new Statement(this.sql, values.map(toSqlValue))
    }

    first<T>(column?: string): Promise<T | null> {
      return call([this.sql], () => {
        const row = execute(this.sql, this.params).rows[0]
        if (!row) return null
        if (column === undefined) return row as T
        if (!(column in row)) throw d1Error(`Column not found: ${column}`)
        return row[column] as T
      })
    }

    all<T>() {
      return call([this.sql], () => result(execute(this.sql, this.params)) as unknown as D1Result<T>)
    }

    run<T>() {
      return call([this.sql], () => result(execute(this.sql, this.params)) as unknown as D1Result<T>)
    }

    raw<T>(options: { columnNames?: boolean } = {}) {
      return call([this.sql], () => {
        const statement = sqlite.prepare(this.sql)
        const rows = plain(statement.all(...this.params)).map((row) => Object.values(row))
        return (options.columnNames ? [statement.columns().map((c) => c.name), ...rows] : rows) as T[]
      })
    }
  }

  const db = {
    prepare: (sql: string) => new Statement(sql),
    batch(statements: Statement[]) {
      return call(
        statements.map((s) => s.sql),
        () => {
          sqlite.exec('BEGIN')
          try {
            const results = statements.map((s) => result(execute(s.sql, s.params)))
            sqlite.exec('COMMIT')
            return results
          } catch (error) {
            sqlite.exec('ROLLBACK')
            throw error
          }
        },
      )
    },
    exec(sql: string) {
      return call([sql], () => {
        sqlite.exec(sql)
        return { count: sql.split(';').filter((part) => part.trim()).length, duration: 0 }
      })
    },
  }
  state.db = db as unknown as D1Database
  return state
}
