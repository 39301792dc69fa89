// `npm run d1:migrate:previews`: applies migrations/ to the previews' own D1 database(s).
// `wrangler d1 migrations apply` only looks at the top-level [[d1_databases]], so a database
// listed under [[previews.d1_databases]] is applied through a generated config that lists it at
// the top level, with the same migrations folder. Run by the preview workflow before each preview.
//   --local   apply to the local copy instead (for trying a migration)
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { isUnsetId, type RawConfig, readWranglerConfig } from './ops-config.ts'

/** A config listing the previews' databases at the top level, written to `dir`. */
export function previewMigrationConfig(config: RawConfig, dir: string): RawConfig {
  const databases = (config.previews?.d1_databases ?? []).map((d: RawConfig) => ({
    ...d,
    migrations_dir: relative(dir, resolve(d.migrations_dir ?? 'migrations')),
  }))
  return { name: config.name, compatibility_date: config.compatibility_date, d1_databases: databases }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { local: { type: 'boolean', default: false } } })
  const config = readWranglerConfig()
  const dir = '.wrangler/ops'
  mkdirSync(dir, { recursive: true })
  const generated = previewMigrationConfig(config, dir)
  const file = join(dir, 'previews-d1.json')
  writeFileSync(file, `${JSON.stringify(generated, null, 2)}\n`)
  for (const db of generated.d1_databases as RawConfig[]) {
    if (!values.local && isUnsetId(db.database_id)) {
      console.error(
        `[[previews.d1_databases]] ${db.binding}: database_id is not set (npx wrangler d1 create ${db.database_name})`,
      )
      process.exit(1)
    }
    const args = [
      'wrangler',
      'd1',
      'migrations',
      'apply',
      db.database_name,
      values.local ? '--local' : '--remote',
      '-c',
      file,
    ]
    const run = spawnSync('npx', args, { stdio: 'inherit' })
    if (run.status !== 0) process.exit(run.status ?? 1)
  }
}
