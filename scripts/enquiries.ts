// `npm run enquiries`: the enquiry record (D1 database ENQUIRIES), for operators.
//   npm run enquiries                         the 50 newest enquiries, one line each
//   npm run enquiries -- --status failed      only pending | delivered | failed | held | handled ones
//   npm run enquiries -- show <id>            one enquiry in full, with its delivery history
//   npm run enquiries -- setup                the delivery set-up the Worker sees (delivery in effect, missing
//                                             names, rate limiter, Turnstile), never a value; with --remote, the deployed one
//   npm run enquiries -- retry <id>           make it due now (a failed one gets one more attempt, a held one is released);
//                                             locally the server's scheduled run is then triggered. While a delivery
//                                             attempt holds it (its lease is live) nothing changes: it says busy, exit 1
//   --remote             the deployed database (through wrangler, signed in), instead of the local one;
//                        show and retry then write an audit line naming who ran them, and refuse without one
//   --as <email>         who runs it, for the audit line (default: git's user.email); locally, when given, a line too
//   --persist-to <dir>   the local state folder the server used (default .wrangler/state, as `npm start`)
//   --url <origin>       the local server to trigger after a retry (default http://localhost:8787)
//   --json               JSON instead of readable text
//   --limit <n>          how many to list (default 50)
//   --env-file <file>    with setup: the local variables file (default .dev.vars)
import { spawnSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import { LIVE_LEASE_SQL, noLiveLease, RETRY_FROM, requeueSql } from '../app/ledger/lease.ts'
import {
  type DeliveryAttempt,
  ENQUIRY_STATUSES,
  type EnquiryRecord,
  formatEnquiry,
  isEnquiryStatus,
} from '../app/ledger/record.ts'
import {
  D1_EXECUTE_ENV,
  d1ExecuteArgs,
  d1Results,
  ENQUIRY_COLUMNS,
  lockedByRunningSite,
  withParams,
} from './d1-execute.ts'
import { openLocalDatabase } from './local-d1.mjs'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    remote: { type: 'boolean', default: false },
    'persist-to': { type: 'string', default: process.env.PERSIST_TO || '.wrangler/state' },
    url: { type: 'string', default: `http://localhost:${process.env.PORT || '8787'}` },
    status: { type: 'string' },
    json: { type: 'boolean', default: false },
    limit: { type: 'string', default: '50' },
    'env-file': { type: 'string' },
    as: { type: 'string' },
  },
})
const [command = 'list', id] = positionals

function fail(message: string): never {
  console.error(message)
  process.exit(2)
}

type Row = Record<string, unknown>

/** One statement, with its numbered parameters (`?1`, `?2`…). */
interface Statement {
  sql: string
  params?: readonly string[]
}

/** The local database, opened on first use and stopped before the command exits. */
let local: Awaited<ReturnType<typeof openLocalDatabase>> | undefined

/**
 * Runs statements on the database, in one batch, and returns each one's rows: the deployed one
 * through `wrangler d1 execute --remote`, the local one through Miniflare's D1 binding as wrangler's
 * `--local` opens it (scripts/local-d1.mjs).
 */
async function query(statements: Statement[]): Promise<Row[][]> {
  if (values.remote) return remoteQuery(statements)
  local ??= await openLocalDatabase({ persistTo: values['persist-to'] as string })
  const { db } = local
  // The running site (`npm start`) has the same SQLite file open: a batch that meets its lock fails
  // at once and did nothing, so it is tried again, up to five times over about three seconds.
  for (let attempt = 1; ; attempt++) {
    try {
      const results = await db.batch(statements.map(({ sql, params = [] }) => db.prepare(sql).bind(...params)))
      return results.map((result: D1Result<Row>) => result.results ?? [])
    } catch (error) {
      const message = String((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message)
      if (lockedByRunningSite(message) && attempt < 5) {
        console.error('The database is locked by the running site: trying again.')
        await new Promise((resolve) => setTimeout(resolve, 300 * attempt))
        continue
      }
      if (/no such table/.test(message)) fail(NO_TABLES)
      fail(`The local enquiry database failed: ${message}`)
    }
  }
}

const NO_TABLES = 'The enquiry database has no tables yet: start the site once (`npm start`), or apply migrations/.'

function remoteQuery(statements: Statement[]): Row[][] {
  const sql = statements.map(({ sql, params = [] }) => withParams(sql, params)).join(';\n')
  const result = spawnSync(
    process.platform === 'win32' ? 'npm.cmd' : 'npm',
    d1ExecuteArgs(sql, { remote: true }, { json: true }),
    { encoding: 'utf8', env: { ...D1_EXECUTE_ENV, ...process.env }, maxBuffer: 64 * 1024 * 1024 },
  )
  const out = result.stdout ?? ''
  if (result.status !== 0) {
    if (/no such table/.test(out + result.stderr)) fail(NO_TABLES)
    fail(`wrangler d1 execute failed:\n${out}${result.stderr ?? ''}`)
  }
  return d1Results<Row>(out)
}

const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`

function requireId(): string {
  if (!id || !/^[\w-]{1,80}$/.test(id)) fail(`Give an enquiry id: npm run enquiries -- ${command} <id>`)
  return id
}

/**
 * Who runs a read or a retry, for the audit trail (docs/desk.md): `--as`, else git's user.email.
 * On the deployed database one is required: an enquiry is not read or requeued there without a line.
 */
function runBy(): string | null {
  const given = (values.as as string | undefined)?.trim()
  if (given !== undefined) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(given) || given.length > 320) fail('--as is an e-mail address.')
    return given.toLowerCase()
  }
  if (!values.remote) return null
  const git = spawnSync('git', ['config', 'user.email'], { encoding: 'utf8' })
  const email = git.status === 0 ? git.stdout.trim().toLowerCase() : ''
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    fail(
      `${command} --remote writes an audit line naming who ran it: give --as <your e-mail>, or set git's user.email. Nothing was read or changed.`,
    )
  return email
}

/** The audit line as the desk writes it (app/ledger/audit.server.ts), prefixed to the statement it records. */
function auditLine(operator: string, action: 'open' | 'retry', enquiryId: string, detail: string): string {
  return `INSERT INTO audit_log (at, operator, action, enquiry_id, detail) SELECT ${sqlText(new Date().toISOString())}, ${sqlText(operator)}, '${action}', id, ${sqlText(detail)} FROM enquiries WHERE id = ${sqlText(enquiryId)}`
}

const FIND_ONE = `SELECT ${ENQUIRY_COLUMNS} FROM enquiries WHERE id = ?1`

function found(rows: Row[] | undefined, enquiryId: string): EnquiryRecord {
  const row = rows?.[0] as Omit<EnquiryRecord, 'subjectLabel'> | undefined
  if (!row) fail(`No enquiry ${enquiryId}.`)
  return { ...row, subjectLabel: row.subject }
}

async function findOne(enquiryId: string): Promise<EnquiryRecord> {
  const [rows] = await query([{ sql: FIND_ONE, params: [enquiryId] }])
  return found(rows, enquiryId)
}

switch (command) {
  case 'setup': {
    const { printDeliverySetup } = await import('./delivery-setup.ts')
    await printDeliverySetup({ remote: values.remote as boolean, envFile: values['env-file'] as string | undefined })
    break
  }
  case 'list': {
    const status = values.status
    if (status !== undefined && !isEnquiryStatus(status)) fail(`--status is one of ${ENQUIRY_STATUSES.join(', ')}.`)
    const limit = Number(values.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) fail('--limit is a number from 1 to 1000.')
    const where = status ? 'WHERE status = ?1' : ''
    const [listed = []] = await query([
      {
        sql: `SELECT ${ENQUIRY_COLUMNS} FROM enquiries ${where} ORDER BY received_at DESC LIMIT ${limit}`,
        params: status ? [status] : [],
      },
    ])
    const rows = listed as Omit<EnquiryRecord, 'subjectLabel'>[]
    if (values.json) {
      for (const row of rows) console.log(JSON.stringify(row))
      break
    }
    const where2 = values.remote ? 'the deployed database' : `the local database (${values['persist-to']})`
    if (rows.length === 0) {
      console.log(`No enquiries${status ? ` with status ${status}` : ''} in ${where2}.`)
      break
    }
    console.log(`${rows.length} enquir${rows.length === 1 ? 'y' : 'ies'} in ${where2}, newest first:\n`)
    for (const row of rows) {
      const state = row.status === 'pending' ? `pending (next ${row.nextAttemptAt ?? '—'})` : row.status
      console.log(
        `${row.id}  ${row.receivedAt}  ${state.padEnd(10)}  ${String(row.attempts).padStart(2)} att.  ${row.subject.padEnd(10)}  ${row.name} <${row.email}>${row.lastCause ? `  last: ${row.lastCause}` : ''}`,
      )
    }
    console.log('\n`npm run enquiries -- show <id>` shows one in full.')
    break
  }
  case 'show': {
    const operator = runBy()
    const enquiryId = requireId()
    // The line first, in the same batch as the read: no read of an enquiry without its line.
    const results = await query([
      ...(operator ? [{ sql: auditLine(operator, 'open', enquiryId, 'npm run enquiries -- show') }] : []),
      { sql: FIND_ONE, params: [enquiryId] },
      {
        sql: 'SELECT attempt, attempted_at AS attemptedAt, delivery, outcome, cause FROM enquiry_attempts WHERE enquiry_id = ?1 ORDER BY attempt',
        params: [enquiryId],
      },
    ])
    const record = found(results.at(-2), enquiryId)
    const attempts = (results.at(-1) ?? []) as unknown as DeliveryAttempt[]
    if (values.json) console.log(JSON.stringify({ ...record, history: attempts }))
    else console.log(formatEnquiry(record, attempts))
    break
  }
  case 'retry': {
    const operator = runBy()
    const record = await findOne(requireId())
    if (record.status === 'delivered')
      fail(`Enquiry ${record.id} was delivered on ${record.deliveredAt}; it is not sent again.`)
    if (record.status === 'handled')
      fail(`Enquiry ${record.id} was marked handled on ${record.handledAt} by ${record.handledBy}; it is not sent.`)
    // The desk's own statement: never over a live lease.
    const now = new Date().toISOString()
    // One call: the change, then (when it changed nothing) the live lease that stopped it.
    const params = [record.id, now]
    // The line only when it is requeued: in the same call, conditioned as the requeue is.
    const line = operator
      ? [
          {
            sql: `${auditLine(operator, 'retry', record.id, `was ${record.status}, npm run enquiries -- retry`)} AND status IN (${RETRY_FROM.map(sqlText).join(', ')}) AND ${noLiveLease(sqlText(now))}`,
          },
        ]
      : []
    const rows = (
      await query([...line, { sql: requeueSql(RETRY_FROM), params }, { sql: LIVE_LEASE_SQL, params }])
    ).flat() as { id?: string; lease_until?: string }[]
    if (!rows.some((row) => row.id)) {
      const lease = rows.find((row) => row.lease_until)
      if (!lease) fail(`Enquiry ${record.id} is ${(await findOne(record.id)).status} now: nothing to retry.`)
      console.error(
        `Enquiry ${record.id} is busy: a delivery attempt under way holds it until ${lease.lease_until}. Nothing was changed; if it is not delivered by then, retry after that.`,
      )
      process.exit(1)
    }
    console.log(`Enquiry ${record.id} is due now (was ${record.status}, ${record.attempts} attempts).`)
    if (values.remote) {
      console.log('The deployed Worker attempts it on its next cron run, within a minute.')
      break
    }
    try {
      const answer = await fetch(new URL('/cdn-cgi/handler/scheduled', values.url), {
        signal: AbortSignal.timeout(30_000),
      })
      if (!answer.ok) throw new Error(`status ${answer.status}`)
      const after = await findOne(record.id)
      console.log(
        `Ran the scheduled delivery on ${values.url}: now ${after.status}${after.lastCause && after.status !== 'delivered' ? ` (${after.lastCause})` : ''}.`,
      )
    } catch {
      console.log(`No local server answered at ${values.url}; it goes out when the scheduled handler next runs there.`)
    }
    break
  }
  default:
    fail(`Unknown command "${command}": use list, show <id>, retry <id> or setup.`)
}

await local?.dispose()
