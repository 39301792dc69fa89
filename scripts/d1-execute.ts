// Running SQL on the enquiry database outside the Worker: `wrangler d1 execute ENQUIRIES`, on the
// deployed database (or, for `npm run load`, on a local state folder), and what both kinds of local
// run answer when they meet the running site's lock (`npm run enquiries` opens the local one itself,
// scripts/local-d1.mjs).

import { CONTACT_FIELDS, ENQUIRY_FIELDS } from '../app/ledger/fields.ts'

/** Where the SQL runs: the deployed database, or a local state folder (`npm start`'s `PERSIST_TO`). */
export type D1Target = { remote: true } | { persistTo: string }

/** The `npm` arguments for `wrangler d1 execute` with one SQL command (`--json`: rows as JSON on stdout). */
export function d1ExecuteArgs(sql: string, target: D1Target, options: { json?: boolean } = {}): string[] {
  const where = 'remote' in target ? ['--remote'] : ['--local', '--persist-to', target.persistTo]
  return [
    'exec',
    '--',
    'wrangler',
    'd1',
    'execute',
    'ENQUIRIES',
    ...where,
    '--config',
    'wrangler.toml',
    ...(options.json ? ['--json'] : []),
    '--command',
    sql,
  ]
}

/**
 * `sql` with its numbered parameters (`?1`, `?2`…) written in as quoted SQL strings: `wrangler d1
 * execute --command` takes no parameters, so the scripts run the Worker's own statements this way.
 */
export function withParams(sql: string, params: readonly string[]): string {
  return sql.replace(/\?(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1]
    if (value === undefined) throw new Error(`no value for ?${n}`)
    return `'${value.replaceAll("'", "''")}'`
  })
}

/** The enquiry columns as `npm run enquiries -- --json` prints them (the record's field names). */
export const ENQUIRY_COLUMNS = `id, received_at AS receivedAt, ${CONTACT_FIELDS.map((field) => {
  const { column } = ENQUIRY_FIELDS[field]
  return column === field ? field : `${column} AS ${field}`
}).join(
  ', ',
)}, status, attempts, next_attempt_at AS nextAttemptAt, last_cause AS lastCause, delivered_at AS deliveredAt, delivered_by AS deliveredBy, held_reason AS heldReason, handled_at AS handledAt, handled_by AS handledBy`

/**
 * Whether a local run failed on the running site's lock on the database file (`npm start` keeps it
 * open), and so did nothing. A write says `SQLITE_BUSY`. A read runs, but Miniflare's D1 then reads
 * the session's commit token inside the same transaction, and that read meets the lock: the answer
 * says "Failed to get session commit token: internal error", the transaction is rolled back, and
 * workerd's own log line naming `SQLITE_BUSY` may or may not reach wrangler's output before it exits.
 * Miniflare's D1 binding, which wrangler's `--local` and `npm run enquiries` use, throws the same
 * words.
 */
export function lockedByRunningSite(output: string): boolean {
  return /SQLITE_BUSY|Failed to get session commit token/.test(output)
}

/** Environment for those runs: no account lookups, no telemetry. */
export const D1_EXECUTE_ENV = { CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }

/** Each statement's rows in `wrangler d1 execute --json` output (wrangler may print lines before the JSON). */
export function d1Results<T>(stdout: string): T[][] {
  const parsed = JSON.parse(stdout.slice(stdout.indexOf('['))) as { results?: T[] }[]
  return parsed.map((batch) => batch.results ?? [])
}

/** The rows of every statement in `wrangler d1 execute --json` output. */
export const d1Rows = <T>(stdout: string): T[] => d1Results<T>(stdout).flat()
