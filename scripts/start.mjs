// `npm start`: build, then serve the production Worker locally on workerd (wrangler dev).
//   PORT          port to listen on (default 8787)
//   HOST          interface to bind (default localhost)
//   SKIP_BUILD=1  serve the existing dist/ without rebuilding
//   ENV_FILE      a file of variables to load instead of .dev.vars (used by the tests)
//   PERSIST_TO    where the local D1 database and other state live (default .wrangler/state)
//   SKIP_MIGRATIONS=1  start without applying migrations/ to the local database (the tests use it
//                 to see what a visitor gets when the database fails)
//   LOG_FILE      also write everything the server prints to this file (the tests read the Worker's
//                 log lines from it)
//   CONFIG        the built Worker's configuration to serve (default dist/server/wrangler.json); the
//                 tests serve a copy beside it with Turnstile's secret listed in secrets.required
import { spawn, spawnSync } from 'node:child_process'
import { createWriteStream, existsSync } from 'node:fs'
import { resolve } from 'node:path'

const port = process.env.PORT || '8787'
const host = process.env.HOST || 'localhost'
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

if (process.env.SKIP_BUILD !== '1' || !existsSync('dist/server/wrangler.json')) {
  const build = spawnSync(npm, ['run', 'build', '--silent'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const persistTo = process.env.PERSIST_TO || '.wrangler/state'
const config = process.env.CONFIG || 'dist/server/wrangler.json'
const quiet = { CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', ...process.env }

// The local enquiry database (D1 inside workerd, kept under persistTo) gets the schema in
// migrations/ before the server starts; applying them again is a no-op.
if (process.env.SKIP_MIGRATIONS !== '1') {
  const migrate = spawnSync(
    npm,
    [
      'exec',
      '--',
      'wrangler',
      'd1',
      'migrations',
      'apply',
      'ENQUIRIES',
      '--local',
      '--config',
      config,
      '--persist-to',
      persistTo,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: quiet, encoding: 'utf8' },
  )
  if (migrate.status !== 0) {
    process.stdout.write(migrate.stdout ?? '')
    console.error('Applying the D1 migrations to the local enquiry database failed.')
    process.exit(migrate.status ?? 1)
  }
  const applied = [...new Set((migrate.stdout ?? '').match(/\d+_[\w-]+\.sql/g))]
  console.log(
    applied.length ? `  Local enquiry database: applied ${applied.join(', ')}` : '  Local enquiry database: up to date',
  )
}

const args = [
  'exec',
  '--',
  'wrangler',
  'dev',
  '--config',
  config,
  '--port',
  port,
  '--ip',
  host,
  '--persist-to',
  persistTo,
  '--show-interactive-dev-session=false',
  '--log-level',
  process.env.WRANGLER_LOG_LEVEL || 'info',
]
// wrangler resolves a relative --env-file against the config's folder (dist/server), not the cwd.
if (process.env.ENV_FILE) args.push('--env-file', resolve(process.env.ENV_FILE))

console.log(`\n  Serving the production build on workerd at http://${host}:${port}\n`)

const log = process.env.LOG_FILE ? createWriteStream(process.env.LOG_FILE) : undefined
const child = spawn(npm, args, {
  stdio: log ? ['inherit', 'pipe', 'pipe'] : 'inherit',
  env: quiet,
})
if (log) {
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk)
    log.write(chunk)
  })
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk)
    log.write(chunk)
  })
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal))
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
