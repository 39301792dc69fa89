// `npm run d1:migrate:previews`: applies migrations/ to the previews' own D1 database(s).
// `wrangler d1 migrations apply` only looks at the top-level [[d1_databases]], so a database
// listed under [[previews.d1_databases]] is applied through a generated config that lists it at
// the top level (.wrangler/ops/previews-d1.json), with the same migrations folder.
//
// It refuses, before running anything, while a previews' database has no id yet or is
// production's (same id or name as a [[d1_databases]] entry): a pull request's migrations run
// here, and they must never run on production's enquiries. Run by the preview job
// (scripts/ci/preview.ts) before each deploy; staging has a database of its own (scripts/ci/staging.ts).
//   --local            apply to the local copy instead (for trying a migration)
//   --migrations <dir> the migrations folder (default: each binding's migrations_dir); the preview
//                      job passes the pull request's own migrations, checked to be SQL files only
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { failure, wrangler } from './ci/lib.ts'
import { nothingToApply } from './ci/migrations.ts'
import { isUnsetId, previewsDatabaseProblems, type RawConfig, readWranglerConfig } from './ops-config.ts'

/** A config listing the previews' databases (or the ones given) at the top level, written to `dir`. */
export function previewMigrationConfig(
  config: RawConfig,
  dir: string,
  migrationsDir?: string,
  databases: RawConfig[] = config.previews?.d1_databases ?? [],
): RawConfig {
  const listed = databases.map((d: RawConfig) => ({
    ...d,
    migrations_dir: relative(dir, resolve(migrationsDir ?? d.migrations_dir ?? 'migrations')),
  }))
  return { name: config.name, compatibility_date: config.compatibility_date, d1_databases: listed }
}

/** Why the previews' databases must not be touched, or nothing. */
export function previewsDatabaseRefusals(config: RawConfig, options: { local?: boolean } = {}): string[] {
  const databases: RawConfig[] = config.previews?.d1_databases ?? []
  const refusals = previewsDatabaseProblems(config)
  if (databases.length === 0) refusals.push('wrangler.toml lists no [[previews.d1_databases]]')
  if (!options.local) {
    for (const db of databases) {
      if (isUnsetId(db.database_id)) {
        refusals.push(
          `[[previews.d1_databases]] ${db.binding}: database_id is not set (npx wrangler d1 create ${db.database_name})`,
        )
      }
    }
  }
  return refusals
}

/** Writes the generated config and returns its path. */
export function writePreviewMigrationConfig(
  config: RawConfig,
  migrationsDir?: string,
  databases?: RawConfig[],
  fileName = 'previews-d1.json',
): string {
  const dir = '.wrangler/ops'
  mkdirSync(dir, { recursive: true })
  const file = join(dir, fileName)
  writeFileSync(file, `${JSON.stringify(previewMigrationConfig(config, dir, migrationsDir, databases), null, 2)}\n`)
  return file
}

/**
 * Applies migrations to the databases a generated config lists; throws with wrangler's error. A
 * remote database that already records every migration is left alone (nothingToApply).
 */
export async function applyMigrations(file: string, databases: RawConfig[], local = false): Promise<void> {
  const listed = (JSON.parse(readFileSync(file, 'utf8')).d1_databases ?? []) as RawConfig[]
  for (const db of databases) {
    const entry = listed.find((d) => d.database_name === db.database_name)
    const dir = resolve(dirname(file), entry?.migrations_dir ?? 'migrations')
    if (!local && entry && (await nothingToApply(entry, dir))) {
      console.log(`No migrations to apply: ${db.database_name} records every file of ${relative('.', dir)}/.`)
      continue
    }
    const run = await wrangler([
      'd1',
      'migrations',
      'apply',
      db.database_name,
      local ? '--local' : '--remote',
      '--config',
      file,
    ])
    if (run.status !== 0)
      throw new Error(`wrangler d1 migrations apply ${db.database_name} failed: ${failure(run).message}`)
  }
}

/** Applies the migrations to every previews' database; throws with the refusal or wrangler's error. */
export async function migratePreviews(options: { local?: boolean; migrationsDir?: string; config?: string } = {}) {
  const config = readWranglerConfig(options.config ?? 'wrangler.toml')
  const refusals = previewsDatabaseRefusals(config, options)
  if (refusals.length > 0) throw new Error(`Refusing to migrate the previews' database:\n  ${refusals.join('\n  ')}`)
  const migrationsDir =
    options.migrationsDir && !isAbsolute(options.migrationsDir) ? resolve(options.migrationsDir) : options.migrationsDir
  const file = writePreviewMigrationConfig(config, migrationsDir)
  await applyMigrations(file, config.previews.d1_databases as RawConfig[], options.local)
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { local: { type: 'boolean', default: false }, migrations: { type: 'string' } },
  })
  try {
    await migratePreviews({ local: values.local, migrationsDir: values.migrations })
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
}
