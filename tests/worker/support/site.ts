// The built Worker in workerd (Miniflare's API), its build's vars under a test's; one a file, emptied per test.
// Outbound calls reach the stand-ins by workerd's own fetch: a time-out or a reset is a real one.
import { readFileSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare, type V4MiniflareOptions } from 'miniflare'
import { expect } from 'vitest'
import { uniqueClientAddress } from '../../support/values'
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
  /** A folder laid out as `wrangler dev --persist-to` lays it out (the operator's command reads it). */
  persistTo?: string
}

export const clientAddress = uniqueClientAddress

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
    // The local send_email binding names each message's file here ("Email: <path>").
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
        // The digest and the alerts are off unless a test turns them on (docs/notices.md).
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
    // Node's fetch sends `Sec-Fetch-Mode: cors`; Miniflare's entry worker restores `MF-Sec-Fetch-Mode`.
    const mode = headers.get('Sec-Fetch-Mode')
    if (mode) headers.set('MF-Sec-Fetch-Mode', mode)
    const url = path.startsWith('http') ? path : `${this.origin}${path}`
    return (await this.#mf.dispatchFetch(url, { ...rest, headers, redirect: 'manual' } as never)) as never
  }

  /** A request as bytes on a socket, for what fetch() will not send (a GET with a body). */
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

  /** Runs the scheduled handler once, as the Cron Trigger does; `at`: its scheduled time. */
  async cron(at: Date = new Date()): Promise<void> {
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

  /** migrations/ applied once; later every row deleted (triggers lifted and put back); logs and mails forgotten. */
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

  /** Waits until exactly `count` JSON log lines match (a line arrives after its answer), and returns them. */
  async logged(match: (line: Record<string, unknown>) => boolean, count = 1): Promise<Record<string, unknown>[]> {
    await expect.poll(() => this.logs().filter(match).length).toBe(count)
    return this.logs().filter(match)
  }

  /** Waits until every line printed so far has arrived: the line of a refused /admin made now. */
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

  /** An origin whose `/cdn-cgi/handler/scheduled` runs the handler, as `npm start`'s does (`retry --url`). */
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

/** Waits for the next wall-clock rate-limit window when fewer than `seconds` of this one are left. */
export async function withinOneWindow(seconds = 5, period = 60): Promise<void> {
  const left = period * 1000 - (Date.now() % (period * 1000))
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50))
}
