// Migrations are append-only (docs/operations/previews.md): a migration that
// main already has has run, under its name, on production's, staging's and the previews' databases,
// and wrangler never runs a name twice (it records each in d1_migrations). Changed or deleted under
// the same name, it would never run again, and the schema of a fresh database would differ from
// production's; added before one main already has, it would run in another order there than on a
// fresh database. So a pull request may only add migrations after main's last.
//   https://developers.cloudflare.com/d1/reference/migrations/
//
//   node scripts/ci/migrations.ts --base <commit>
//       CI's check (.github/workflows/ci.yml, job "Migrations are append-only"): the checkout's
//       migrations/ against the base commit's (git history needed: fetch-depth 0). A pull request's
//       base is its base branch's commit; a push to main's, main before the push.
// A new migration may not drop or rename a table or a column: the version serving while the deploy
// runs reads the old schema, and D1 Time Travel is the only way back for the data. A file that must
// do so carries a line `-- destructive: <why>` (docs/operations/rollback.md), and then passes.
// The preview job makes the same check of a pull request's build against the default branch's
// migrations before it migrates anything (scripts/ci/preview-build.ts), where the pull request's
// own copy of this script cannot skip it.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { RawConfig } from '../ops-config.ts'
import { d1Query } from './lib.ts'

/** The migration files of a folder: name → text. */
export function migrationsIn(dir: string): Map<string, string> {
  if (!existsSync(dir)) return new Map()
  return new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  )
}

/**
 * Whether `wrangler d1 migrations apply <database> --remote` would find nothing to apply: every
 * migration file of `dir` is named in the database's `d1_migrations` table, read through the API
 * with the job's token. That is wrangler's own test (getUnappliedMigrations in 4.151: a `*.sql` file
 * of the folder whose name the table lacks is pending), made with one request instead of wrangler's
 * start. False whenever it cannot be told (no token, no table yet, a read that fails, a table or a
 * file pattern of the database's own): the caller then runs wrangler, which applies what is pending.
 */
export async function nothingToApply(database: RawConfig, dir: string): Promise<boolean> {
  const id = database.database_id
  if (typeof id !== 'string' || !id || database.migrations_table || database.migrations_pattern) return false
  try {
    const recorded = new Set((await d1Query<{ name: string }>(id, 'SELECT name FROM d1_migrations')).map((r) => r.name))
    return [...migrationsIn(dir).keys()].every((name) => recorded.has(name))
  } catch {
    return false
  }
}

/** The migration files of a folder at a git commit: name → text. */
export function migrationsAt(commit: string, dir = 'migrations'): Map<string, string> {
  const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const names = git(['ls-tree', '--name-only', `${commit}:${dir}`])
    .split('\n')
    .filter((f) => f.endsWith('.sql'))
    .sort()
  return new Map(names.map((f) => [f, git(['show', `${commit}:${dir}/${f}`])]))
}

/** How `head` breaks the append-only rule against `base`: every change, deletion and insertion. */
export function migrationChanges(base: Map<string, string>, head: Map<string, string>): string[] {
  const problems: string[] = []
  for (const [name, text] of base) {
    if (!head.has(name)) problems.push(`${name} is deleted, but main has already applied it`)
    else if (head.get(name) !== text)
      problems.push(`${name} is changed, but main has already applied it under this name`)
  }
  const last = [...base.keys()].sort().at(-1)
  for (const name of head.keys()) {
    if (!base.has(name) && last !== undefined && name < last) {
      problems.push(`${name} is added before ${last}, which main already has: number it after`)
    }
  }
  return problems
}

/** The line a migration carries when it drops or renames on purpose, with the reason after it. */
export const DESTRUCTIVE_MARKER = /^--[ \t]*destructive:[ \t]*\S.*$/m

const DESTRUCTIVE: [RegExp, string][] = [
  [/\bDROP\s+TABLE\b/i, 'drops a table'],
  [/\bALTER\s+TABLE\s+\S+\s+DROP\s+(COLUMN\s+)?\S+/i, 'drops a column'],
  [/\bALTER\s+TABLE\s+\S+\s+RENAME\s+TO\b/i, 'renames a table'],
  [/\bALTER\s+TABLE\s+\S+\s+RENAME\s+(COLUMN\s+)?\S+\s+TO\b/i, 'renames a column'],
]

/** What a migration's SQL destroys or renames (comments aside), unless it carries the marker line. */
export function destructiveChanges(name: string, text: string): string[] {
  if (DESTRUCTIVE_MARKER.test(text)) return []
  const sql = text.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ')
  return DESTRUCTIVE.filter(([pattern]) => pattern.test(sql)).map(
    ([, what]) =>
      `${name} ${what}: the version serving during the deploy still reads it, and only D1 Time Travel brings the data back. Add columns and tables instead, or put a line "-- destructive: <why>" in the file (docs/operations/rollback.md)`,
  )
}

/** Every problem of `head` against `base`: the append-only rule, then what the new migrations destroy. */
export function migrationProblems(base: Map<string, string>, head: Map<string, string>): string[] {
  const added = [...head].filter(([name]) => !base.has(name))
  return [...migrationChanges(base, head), ...added.flatMap(([name, text]) => destructiveChanges(name, text))]
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { base: { type: 'string' } } })
  if (!values.base) {
    console.error('migrations: give the base commit with --base <commit>')
    process.exit(2)
  }
  const problems = migrationProblems(migrationsAt(values.base), migrationsIn('migrations'))
  if (problems.length > 0) {
    console.error(
      `Migrations are append-only and drop or rename nothing: add a new migration instead (docs/operations/previews.md).\n  ${problems.join('\n  ')}`,
    )
    process.exit(1)
  }
  console.log(`migrations: append-only against ${values.base.slice(0, 12)}, and no new one drops or renames`)
}
