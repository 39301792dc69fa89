/**
 * The built Worker (dist/server, what `npm start` and a deploy serve) run in workerd through
 * Miniflare's own API, in the test's process: no server, no port, no file another process reads.
 *
 * Its configuration is the build's (dist/server/wrangler.json): the vars, the D1 database, the two
 * rate-limit bindings, `send_email` and the static files, with a test's variables and secrets
 * over the vars. Outbound calls go where those variables point: stand-ins on 127.0.0.1 that the
 * test file owns (tests/support/form-service.ts, access-keys.ts, turnstile.ts), reached by
 * workerd's own fetch, so a time-out, a reset connection or a 20 MB answer is a real one.
 *
 * Each test gets a database of its own: migrations/ applied, and before each test every row of the
 * one before deleted (`reset()`); the logs and e-mails are forgotten too. One workerd per test
 * file, since starting one costs a second or more of CPU and emptying a database a few
 * milliseconds; vitest runs a file's tests one after another, and files in processes of their
 * own. Miniflare keeps the state in memory unless a test names a folder (`persistTo`, for a
 * restart with other variables, or for the operator's command that reads the local database).
 */
import { readFileSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare, type V4MiniflareOptions } from 'miniflare'
import { expect } from 'vitest'
import { built, MIGRATIONS, modules, SERVER } from './build'
import { type Mail, readMail } from './mail'

export { built, statementsOf } from './build'
export { type Mail, readMail } from './mail'

export interface SiteOptions {
  /** Variables and secrets over the build's vars (a secret is a variable to the Worker). */
  vars?: Record<string, string>
  /** The two rate-limit bindings as wrangler.toml declares them; false: not bound. Default true. */
  rateLimits?: boolean
  /** Apply migrations/ to each test's database; false: a database without its schema. Default true. */
  migrations?: boolean
  /**
   * A folder for the local state, laid out as `wrangler dev --persist-to <folder>` lays it out, so
   * the operator's `npm run enquiries -- --persist-to <folder>` reads the same database. Default:
   * in memory.
   */
  persistTo?: string
}

export function clientAddress(): string {
  const hex = () => Math.floor(Math.random() * 0x10000).toString(16)
  return `2001:db8:${hex()}:${hex()}:${hex()}:${hex()}::1`
}

export class Site {
  readonly origin = 'http://localhost'
  #mf: Miniflare
  #options: SiteOptions
  #lines: string[] = []
  #mailPaths: string[] = []
  #url: URL | undefined
  #cronDoor: Server | undefined

  private constructor(options: SiteOptions) {
    this.#options = options
    this.#mf = new Miniflare(this.#miniflareOptions(options))
  }

  /** Starts the built Worker with these options; its first test's database is ready. */
  static async start(options: SiteOptions = {}): Promise<Site> {
    const site = new Site(options)
    site.#url = await site.#mf.ready
    await site.reset()
    return site
  }

  #miniflareOptions(options: SiteOptions) {
    const config = built()
    const capture = (line: string) => this.#lines.push(line)
    const mails = (path: string) => this.#mailPaths.push(path)
    // Miniflare's own messages: the local send_email binding writes each message to a file and
    // names it here ("Email: <path>"), as wrangler prints it.
    class Captured extends Log {
      override logWithLevel(level: LogLevel, message: string) {
        for (const match of message.matchAll(/Email: (\S+\.eml)/g)) mails(match[1] as string)
        if (level <= LogLevel.WARN) capture(message)
      }
    }
    const database = config.d1_databases[0]?.database_id ?? 'local'
    const v4: V4MiniflareOptions = {
      modulesRoot: SERVER,
      modules: modules(),
      compatibilityDate: config.compatibility_date,
      compatibilityFlags: config.compatibility_flags,
      bindings: {
        ...config.vars,
        // The digest and the alerts are off unless a test turns them on: each would otherwise add
        // a message of its own to the ones a test reads (docs/notices.md).
        DIGEST_HOUR_UTC: 'off',
        ALERT_AFTER_FAILURES: 'off',
        ...options.vars,
        // As wrangler's local server binds it: an id made up at each start, no tag.
        ...(config.version_metadata
          ? {
              [config.version_metadata.binding]: {
                id: crypto.randomUUID(),
                tag: '',
                timestamp: new Date().toISOString(),
              },
            }
          : {}),
      },
      d1Databases: { ENQUIRIES: database },
      ratelimits:
        options.rateLimits === false
          ? {}
          : Object.fromEntries(
              config.ratelimits.map((limit) => [
                limit.name,
                { namespace_id: limit.namespace_id, simple: limit.simple },
              ]),
            ),
      email: { send_email: config.send_email },
      assets: { directory: resolve('dist/client'), routerConfig: { has_user_worker: true } },
      // As `wrangler dev --persist-to` and `wrangler d1 execute --persist-to` lay it out.
      ...(options.persistTo ? { resourcePersistencePath: join(resolve(options.persistTo), 'v3') } : {}),
      // The Worker's console lines (its JSON log lines among them).
      handleStructuredLogs: ({ message }: { message: string }) => {
        capture(message)
      },
      log: new Captured(LogLevel.INFO),
      // No request for Cloudflare's `cf` object (there is no internet here).
      cf: false,
    }
    return convertV4MiniflareOptions(v4)
  }

  /** Sends a request to the Worker as a client would: a path on this site, or a whole URL. */
  async fetch(path: string, init: RequestInit & { ip?: string } = {}): Promise<Response> {
    const { ip, ...rest } = init
    const headers = new Headers(rest.headers)
    if (!headers.has('CF-Connecting-IP')) headers.set('CF-Connecting-IP', ip ?? clientAddress())
    // Node's fetch sends `Sec-Fetch-Mode: cors` whatever a request says; Miniflare's entry worker
    // puts back the mode named in its `MF-Sec-Fetch-Mode` header (what Cloudflare's Vite plugin
    // uses). Were that header renamed, every browser-like form post here would be answered as a
    // script's (JSON, no 303) and the tests of the form without JavaScript would fail.
    const mode = headers.get('Sec-Fetch-Mode')
    if (mode) headers.set('MF-Sec-Fetch-Mode', mode)
    const url = path.startsWith('http') ? path : `${this.origin}${path}`
    return (await this.#mf.dispatchFetch(url, { ...rest, headers, redirect: 'manual' } as never)) as never
  }

  /**
   * A request as bytes on a socket, for what fetch() will not send (a GET with a body): to the
   * address Miniflare listens on, on 127.0.0.1.
   */
  raw(
    method: string,
    path: string,
    body: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> {
    const url = new URL(path, this.#url)
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        url,
        {
          method,
          headers: {
            'CF-Connecting-IP': clientAddress(),
            Origin: url.origin,
            'Content-Length': Buffer.byteLength(body),
            ...headers,
          },
        },
        (response) => {
          let text = ''
          response.on('data', (chunk: Buffer) => {
            text += chunk
          })
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
        },
      )
      request.on('error', reject)
      request.end(body)
    })
  }

  /**
   * Runs the Worker's scheduled handler once, as the Cron Trigger does every minute; `at`: the
   * trigger's scheduled time, for a run later than now (a retry due in an hour) without a wait.
   */
  async cron(at: Date = new Date()): Promise<void> {
    // Fetcher.scheduled(), which Miniflare's types leave out of the worker it returns.
    const worker = (await this.#mf.getWorker()) as unknown as {
      scheduled(options: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }>
    }
    const result = await worker.scheduled({ cron: '* * * * *', scheduledTime: at })
    if (result.outcome !== 'ok') throw new Error(`the scheduled handler ended "${result.outcome}"`)
  }

  /** Rows of a query on the Worker's own database (the D1 binding, inside workerd). */
  async sql<T = Record<string, unknown>>(query: string, ...params: unknown[]): Promise<T[]> {
    const db = await this.#mf.getD1Database('ENQUIRIES')
    return (
      await db
        .prepare(query)
        .bind(...params)
        .all<T>()
    ).results
  }

  /** Runs set-up statements (a back-dated row, a held enquiry) on the Worker's own database. */
  async exec(...statements: string[]): Promise<void> {
    const db = await this.#mf.getD1Database('ENQUIRIES')
    await db.batch(statements.map((statement) => db.prepare(statement)))
  }

  #migrated = false

  /**
   * A fresh database: migrations/ applied once, then before each test every row deleted (the
   * audit trail's append-only triggers lifted for it and put back) and the row ids started again.
   * A test that wrote nothing leaves nothing to delete. Logs and e-mails are forgotten too.
   */
  async reset(): Promise<void> {
    this.#lines.length = 0
    this.#mailPaths.length = 0
    if (this.#options.migrations === false) return
    const db = await this.#mf.getD1Database('ENQUIRIES')
    if (!this.#migrated) {
      await db.batch(MIGRATIONS.map((statement) => db.prepare(statement)))
      this.#migrated = true
      return
    }
    const schema = (
      await db
        .prepare(
          "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
        )
        .all()
    ).results as { type: string; name: string; sql: string }[]
    const tables = schema.filter((item) => item.type === 'table').map((item) => item.name)
    const rows = (await db
      .prepare(`SELECT ${tables.map((name) => `(SELECT count(*) FROM "${name}")`).join(' + ')} AS n`)
      .first()) as { n: number } | null
    if (!rows?.n) return
    const triggers = schema.filter((item) => item.type === 'trigger')
    const sequence = await db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").first()
    await db.batch(
      [
        'PRAGMA defer_foreign_keys = on',
        ...triggers.map((trigger) => `DROP TRIGGER "${trigger.name}"`),
        ...tables.map((name) => `DELETE FROM "${name}"`),
        ...(sequence ? ['DELETE FROM sqlite_sequence'] : []),
        ...triggers.map((trigger) => trigger.sql),
      ].map((statement) => db.prepare(statement)),
    )
  }

  /** Stops the Worker and starts it again with other variables, the same state kept (`persistTo`). */
  async restart(vars: Record<string, string>): Promise<void> {
    if (!this.#options.persistTo) throw new Error('a restart keeps the state only with persistTo')
    await this.#mf.dispose()
    this.#options = { ...this.#options, vars }
    this.#mf = new Miniflare(this.#miniflareOptions(this.#options))
    this.#url = await this.#mf.ready
  }

  /** Everything the Worker printed since the test began. */
  output(): string {
    return this.#lines.join('\n')
  }

  /** The Worker's JSON log lines since the test began (its `log()` writes one object a line). */
  logs(): Record<string, unknown>[] {
    return this.#lines.flatMap((line) => {
      const at = line.indexOf('{"level"')
      if (at < 0) return []
      try {
        return [JSON.parse(line.slice(at)) as Record<string, unknown>]
      } catch {
        return []
      }
    })
  }

  /**
   * Waits until exactly `count` of the Worker's JSON log lines match, and returns them: a line
   * reaches the test's process a moment after the answer or the run it belongs to.
   */
  async logged(match: (line: Record<string, unknown>) => boolean, count = 1): Promise<Record<string, unknown>[]> {
    await expect.poll(() => this.logs().filter(match).length).toBe(count)
    return this.logs().filter(match)
  }

  /**
   * Waits until every line the Worker has printed so far has reached the test: the Worker prints
   * in order, so once the line of a request made now (a refused /admin, which always logs one)
   * has arrived, so have all before it. For a test that counts lines that must not be there.
   */
  async settled(): Promise<void> {
    const denials = () => this.logs().filter((line) => line.event === 'admin_denied').length
    const before = denials()
    const answer = await this.fetch('/admin')
    await answer.arrayBuffer()
    await expect.poll(denials).toBe(before + 1)
  }

  /** Every message the `send_email` binding took since the test began, decoded. */
  mails(): Mail[] {
    return this.#mailPaths.map((path) => readMail(readFileSync(path, 'utf8')))
  }

  /**
   * An address on 127.0.0.1 where `GET /cdn-cgi/handler/scheduled` runs the scheduled handler, as
   * wrangler's local server (`npm start`) answers it: what the operator's `npm run enquiries --
   * retry <id> --url <origin>` calls after making an enquiry due.
   */
  async cronDoor(): Promise<string> {
    if (!this.#cronDoor) {
      const server = createServer((request, response) => {
        if (request.url !== '/cdn-cgi/handler/scheduled') return void response.writeHead(404).end()
        this.cron(new Date()).then(
          () => response.writeHead(200).end('ok'),
          (error: unknown) => response.writeHead(500).end(String(error)),
        )
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      this.#cronDoor = server
    }
    return `http://127.0.0.1:${(this.#cronDoor.address() as AddressInfo).port}`
  }

  async close(): Promise<void> {
    this.#cronDoor?.close()
    await this.#mf.dispose()
  }
}

/**
 * Waits for the next rate-limit window when fewer than `seconds` of this one are left, so a burst
 * is counted in one window: Miniflare's limiter counts in windows aligned to the wall clock
 * (`floor(now / period)`). A wait for a moment on the clock, at most `seconds` long.
 */
export async function withinOneWindow(seconds = 5, period = 60): Promise<void> {
  const left = period * 1000 - (Date.now() % (period * 1000))
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50))
}
