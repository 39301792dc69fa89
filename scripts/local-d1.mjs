// The local enquiry database (D1 inside workerd, kept under --persist-to), as wrangler lays it out
// and opens it for `wrangler d1 execute --local` (`executeLocally` in its d1 commands): Miniflare's
// database named by the binding's database id (else the binding's name) under <persist-to>/v3.
// `npm start`, `npm run dev` (scripts/local-migrations.mjs) and `npm run enquiries` open it here,
// with Miniflare's public API, in one workerd per command instead of one wrangler (about a second
// of CPU to start) per statement. tests/worker/local-migrations.test.ts holds the layout to the
// pinned wrangler in both directions.
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { readWranglerConfig } from './ops-config.ts'

const BINDING = 'ENQUIRIES'

/** The enquiry database's entry in a wrangler configuration (wrangler.toml or a build's wrangler.json). */
export function enquiryDatabase(configPath) {
  const config = readWranglerConfig(configPath)
  const database = (config.d1_databases ?? []).find((d) => d.binding === BINDING)
  if (!database) throw new Error(`${configPath} has no D1 database bound as ${BINDING}`)
  return {
    id: database.preview_database_id ?? database.database_id ?? database.binding,
    migrations: resolve(dirname(configPath), database.migrations_dir ?? 'migrations'),
    table: database.migrations_table ?? 'd1_migrations',
  }
}

/** Where Miniflare keeps the local state under `--persist-to` (as wrangler and `npm start` use it). */
const stateRoot = (persistTo) => join(resolve(persistTo), 'v3')

/** The local D1 databases' files under a `--persist-to` folder (SQLite, as workerd keeps them). */
export function localDatabaseFiles(persistTo) {
  const dir = join(stateRoot(persistTo), 'd1', 'miniflare-D1DatabaseObject')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite')
    .map((name) => join(dir, name))
}

/**
 * The local enquiry database's D1 binding, in a workerd of its own; `dispose` stops it. Miniflare
 * is loaded here, not with the module: the tests and `npm run flood` import it for
 * localDatabaseFiles alone.
 */
export async function openLocalDatabase({ config = 'wrangler.toml', persistTo = '.wrangler/state' } = {}) {
  const { id } = enquiryDatabase(config)
  const { convertV4MiniflareOptions, Miniflare } = await import('miniflare')
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: '',
      resourcePersistencePath: stateRoot(persistTo),
      d1Databases: { DATABASE: id },
    }),
  )
  return { db: await mf.getD1Database('DATABASE'), dispose: () => mf.dispose() }
}
