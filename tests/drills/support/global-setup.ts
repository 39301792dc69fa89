/**
 * Before any drill: the shared stand-ins (standin.ts) in a process of their own, and the first
 * deploy every drill that starts from a serving production adopts (control.adopt): the three
 * databases with their tables, and one upload of the build `npm run build` made, by the pinned
 * wrangler (tests/drills/first-deploy.test.ts drills the first deploy itself, command by command).
 * Each drill file gets the addresses through `inject('standin')`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { connectCloudflare } from '../../support/cloudflare/index.ts'
import { runWrangler } from '../../support/cloudflare/wrangler.ts'
import { DATABASES, WORKER } from './names.ts'
import { copyRepository, pinDatabaseIds, REPO, replaceSamples, syncBuildConfig } from './project.ts'
import type { StandinAddresses } from './standin.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    standin: StandinAddresses
  }
}

/** The table wrangler keeps applied migrations in (its getCreateMigrationsTableQuery, 4.151). */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "d1_migrations"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`

let server: ChildProcess | undefined

function startServer(): Promise<{ cloudflare: string; github: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, 'tests/drills/support/standin.ts')], {
      cwd: REPO,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
    })
    server = child
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk
      const line = out.split('\n')[0] as string
      if (out.includes('\n')) {
        try {
          resolve(JSON.parse(line))
        } catch {
          reject(new Error(`the stand-ins printed: ${out}`))
        }
      }
    })
    child.on('exit', (code) => reject(new Error(`the stand-ins exited with ${code}: ${out}`)))
  })
}

export default async function setup(project: TestProject) {
  const addresses = await startServer()
  const cf = await connectCloudflare(addresses, {
    databases: Object.values(DATABASES).map((name) => ({ name, uuid: crypto.randomUUID() })),
  })
  const ids = Object.fromEntries((await cf.state.databases()).map((d) => [d.name, d.uuid]))
  // Each database as `wrangler d1 migrations apply` leaves it: the migrations' tables, and their names.
  const migrations = readdirSync(join(REPO, 'migrations'))
    .filter((f) => f.endsWith('.sql'))
    .sort()
  for (const name of Object.values(DATABASES)) {
    await cf.state.query(name, MIGRATIONS_TABLE)
    for (const file of migrations) {
      await cf.state.query(name, readFileSync(join(REPO, 'migrations', file), 'utf8'))
      await cf.state.query(name, 'INSERT INTO d1_migrations (name) VALUES (?)', file)
    }
  }
  const copy = copyRepository()
  const secrets = mkdtempSync(join(tmpdir(), 'drill-template-'))
  try {
    pinDatabaseIds(copy, {
      production: ids[DATABASES.production] as string,
      previews: ids[DATABASES.previews] as string,
    })
    replaceSamples(copy, cf.workersDevUrl(WORKER))
    syncBuildConfig(copy)
    writeFileSync(join(secrets, 'secrets.env'), 'CONTACT_FORM_ACCESS_KEY=template-key\n', { mode: 0o600 })
    const deploy = await runWrangler(
      cf,
      ['deploy', '--config', 'dist/server/wrangler.json', '--secrets-file', join(secrets, 'secrets.env')],
      // Minutes, not seconds, on a loaded machine: this upload is every adopting drill's start.
      { cwd: copy.dir, timeoutMs: 600_000 },
    )
    if (deploy.code !== 0) throw new Error(`the template's first deploy failed:\n${deploy.stdout}\n${deploy.stderr}`)
  } finally {
    copy.remove()
    rmSync(secrets, { recursive: true, force: true })
  }
  project.provide('standin', { ...addresses, template: cf.accountId })
  return async () => {
    const child = server
    if (!child || child.exitCode !== null) return
    // Waited for, so its accounts' workerd and its folder are gone when the step ends (killed after 8 s).
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    const late = setTimeout(() => child.kill('SIGKILL'), 8_000)
    await exited
    clearTimeout(late)
  }
}
