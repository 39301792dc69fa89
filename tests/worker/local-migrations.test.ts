// scripts/local-migrations.mjs and the pinned wrangler's `d1 migrations apply --local` agree in both directions.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'
import { localDatabaseFiles } from '../../scripts/local-d1.mjs'
import { applyLocalMigrations } from '../../scripts/local-migrations.mjs'

const run = promisify(execFile)
const CONFIG = 'dist/server/wrangler.json'
const folders: string[] = []
const folder = (label: string) => {
  const made = mkdtempSync(join(tmpdir(), `local-migrations-${label}-`))
  folders.push(made)
  return made
}
afterAll(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true })
})

async function wrangler(...args: string[]): Promise<string> {
  const { stdout, stderr } = await run('npx', ['wrangler', ...args], {
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  })
  return `${stdout}${stderr}`
}

/** The local database's schema and recorded migrations, read from its file (the one D1 database under it). */
function contents(persistTo: string) {
  const files = localDatabaseFiles(persistTo)
  expect(files).toHaveLength(1)
  const db = new DatabaseSync(files[0] as string, { readOnly: true })
  try {
    const schema = db
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
      .all()
    const tables = schema.filter((row) => row.type === 'table').map((row) => row.name)
    const migrations = tables.includes('d1_migrations')
      ? db
          .prepare('SELECT name FROM d1_migrations ORDER BY id')
          .all()
          .map((row) => row.name)
      : []
    return { schema, tables, migrations }
  } finally {
    db.close()
  }
}

test('what npm start applies, the pinned wrangler finds applied; what wrangler applied, npm start finds up to date; the same schema either way', async () => {
  const files = readdirSync('migrations')
    .filter((name) => name.endsWith('.sql'))
    .sort()
  const ours = folder('ours')
  expect(await applyLocalMigrations({ config: CONFIG, persistTo: ours })).toEqual(files)
  expect(await applyLocalMigrations({ config: CONFIG, persistTo: ours }), 'a second start applies nothing').toEqual([])
  expect(
    await wrangler('d1', 'migrations', 'list', 'ENQUIRIES', '--local', '--config', CONFIG, '--persist-to', ours),
  ).toContain('No migrations to apply')

  const theirs = folder('wrangler')
  await wrangler('d1', 'migrations', 'apply', 'ENQUIRIES', '--local', '--config', CONFIG, '--persist-to', theirs)
  expect(await applyLocalMigrations({ config: CONFIG, persistTo: theirs })).toEqual([])

  const mine = contents(ours)
  const wranglers = contents(theirs)
  expect(mine.migrations).toEqual(files)
  expect(wranglers.migrations).toEqual(files)
  expect(mine.schema).toEqual(wranglers.schema)
  expect(mine.tables).toContain('enquiries')
}, 180_000) // wrangler's apply starts a Miniflare for each migration: over a minute on a busy 2-core machine

test('a migration that fails is named, leaves nothing of itself, and is applied once it is fixed', async () => {
  const project = folder('project')
  mkdirSync(join(project, 'changes'))
  writeFileSync(
    join(project, 'wrangler.toml'),
    [
      'name = "local-migrations-test"',
      '[[d1_databases]]',
      'binding = "ENQUIRIES"',
      'database_name = "local-migrations-test"',
      'database_id = "local-migrations-test"',
      'migrations_dir = "changes"',
      '',
    ].join('\n'),
  )
  const config = join(project, 'wrangler.toml')
  const persistTo = join(project, 'state')
  writeFileSync(join(project, 'changes', '0001_first.sql'), 'CREATE TABLE first (x TEXT);\n')
  writeFileSync(
    join(project, 'changes', '0002_second.sql'),
    'CREATE TABLE second (x TEXT);\nINSERT INTO missing VALUES (1);\n',
  )
  await expect(applyLocalMigrations({ config, persistTo })).rejects.toThrow(/0002_second\.sql: .*missing/)
  let now = contents(persistTo)
  expect(now.migrations).toEqual(['0001_first.sql'])
  expect(now.tables).toContain('first')
  expect(now.tables, 'nothing of the failed migration').not.toContain('second')

  writeFileSync(join(project, 'changes', '0002_second.sql'), 'CREATE TABLE second (x TEXT);\n')
  expect(await applyLocalMigrations({ config, persistTo })).toEqual(['0002_second.sql'])
  now = contents(persistTo)
  expect(now.migrations).toEqual(['0001_first.sql', '0002_second.sql'])
  expect(now.tables).toContain('second')
})
