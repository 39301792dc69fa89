/**
 * What the workerd tests read of the build and the migrations: dist/server's configuration and
 * modules, and migrations/ as D1's `exec` takes it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const SERVER = resolve('dist/server')
const BUILT = join(SERVER, 'wrangler.json')

interface BuiltConfig {
  compatibility_date: string
  compatibility_flags?: string[]
  vars: Record<string, string>
  d1_databases: { binding: string; database_id: string }[]
  ratelimits: { name: string; namespace_id: string; simple: { limit: number; period: 10 | 60 } }[]
  send_email: { name: string }[]
  version_metadata?: { binding: string }
}

export const built = (): BuiltConfig => JSON.parse(readFileSync(BUILT, 'utf8')) as BuiltConfig

/**
 * A migration file's statements, one by one (D1's `exec` takes one statement a line): a statement
 * ends with `;` at the end of a line, except inside a trigger's BEGIN … END.
 */
export function statementsOf(sql: string): string[] {
  const statements: string[] = []
  let current: string[] = []
  let inBody = false
  for (const line of sql.split('\n')) {
    const code = line.replace(/--.*$/, '').trimEnd()
    if (code.trim() === '') continue
    current.push(code)
    if (/\bBEGIN$/i.test(code.trim())) inBody = true
    if (inBody ? /^END;$/i.test(code.trim()) : code.endsWith(';')) {
      statements.push(current.join('\n'))
      current = []
      inBody = false
    }
  }
  if (current.length) statements.push(current.join('\n'))
  return statements
}

/** Every statement of migrations/, in order. */
export const MIGRATIONS = readdirSync('migrations')
  .filter((name) => name.endsWith('.sql'))
  .sort()
  .flatMap((name) => statementsOf(readFileSync(join('migrations', name), 'utf8')))

/** The built Worker's modules: its entry and every chunk it imports. */
export function modules() {
  const chunks = readdirSync(join(SERVER, 'assets')).filter((name) => name.endsWith('.js'))
  return ['index.js', ...chunks.map((name) => `assets/${name}`)].map((name) => ({
    type: 'ESModule' as const,
    path: join(SERVER, name),
  }))
}
