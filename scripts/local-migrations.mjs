// Applies migrations/ to the local enquiry database (D1 inside workerd, kept under --persist-to),
// as `wrangler d1 migrations apply ENQUIRIES --local` does, for `npm start` and `npm run dev`:
//   node scripts/local-migrations.mjs [--config wrangler.toml] [--persist-to .wrangler/state]
//
// Wrangler starts a Miniflare, and with it a workerd, to list what is applied and again for each
// migration: 7.5 s for the 12 here (about 9 CPU-seconds). This starts one, with Miniflare's public
// API, and takes about a second. It relies on two things of wrangler's own, which
// tests/worker/local-migrations.test.ts checks against the pinned wrangler in both directions:
//   - where a local D1 lives (scripts/local-d1.mjs);
//   - how applied migrations are recorded: one row per file name in the `migrations_table`
//     (default d1_migrations), as wrangler creates and reads it.
// Each migration and its row are one batch, so a migration that fails leaves nothing of itself.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { enquiryDatabase, openLocalDatabase } from './local-d1.mjs'

/** Applies what is not yet applied, in file-name order; returns the names it applied. */
export async function applyLocalMigrations({ config = 'wrangler.toml', persistTo = '.wrangler/state' } = {}) {
  const { migrations, table } = enquiryDatabase(config)
  const files = readdirSync(migrations)
    .filter((name) => name.endsWith('.sql'))
    .sort()
  const quoted = `"${table.replaceAll('"', '""')}"`
  const { db, dispose } = await openLocalDatabase({ config, persistTo })
  try {
    await db
      // wrangler's own statement, to the character (getCreateMigrationsTableQuery).
      .prepare(
        `CREATE TABLE IF NOT EXISTS ${quoted}(\n\t\tid         INTEGER PRIMARY KEY AUTOINCREMENT,\n\t\tname       TEXT UNIQUE,\n\t\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL\n);`,
      )
      .run()
    const { results } = await db.prepare(`SELECT name FROM ${quoted}`).all()
    const done = new Set(results.map((row) => row.name))
    const applied = []
    for (const name of files.filter((file) => !done.has(file))) {
      const sql = readFileSync(join(migrations, name), 'utf8')
      try {
        await db.batch([db.prepare(sql), db.prepare(`INSERT INTO ${quoted} (name) VALUES (?1)`).bind(name)])
      } catch (error) {
        throw new Error(`${name}: ${error instanceof Error ? error.message : error}`)
      }
      applied.push(name)
    }
    return applied
  } finally {
    await dispose()
  }
}

/** Applies them and says what it did, as `npm start` and `npm run dev` print it; exits 1 on a failure. */
export async function applyAndReport(options) {
  try {
    const applied = await applyLocalMigrations(options)
    console.log(
      applied.length
        ? `  Local enquiry database: applied ${applied.join(', ')}`
        : '  Local enquiry database: up to date',
    )
  } catch (error) {
    console.error(`Applying the D1 migrations to the local enquiry database failed: ${error.message}`)
    process.exit(1)
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { config: { type: 'string' }, 'persist-to': { type: 'string' } } })
  await applyAndReport({ config: values.config, persistTo: values['persist-to'] })
}
