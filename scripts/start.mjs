// `npm start`: build, then serve the production Worker locally on workerd (wrangler dev).
//   PORT          port to listen on (default 8787)
//   HOST          interface to bind (default localhost)
//   SKIP_BUILD=1  serve the existing dist/ without rebuilding
//   CRON_INTERVAL seconds between runs of the scheduled handler (default 60, as the Cron Trigger's
//                 "* * * * *" in production; 0: never, the tests that run it by hand use that)
//   ENV_FILE      a file of variables to load instead of .dev.vars (used by the tests)
//   PERSIST_TO    where the local D1 database and other state live (default .wrangler/state)
//   SKIP_MIGRATIONS=1  start without applying migrations/ to the local database (the tests use it
//                 to see what a visitor gets when the database fails)
//   LOG_FILE      also write everything the server prints to this file (the tests read the Worker's
//                 log lines from it)
//   CONFIG        the built Worker's configuration to serve (default dist/server/wrangler.json); the
//                 tests serve a copy beside it with Turnstile's secret listed in secrets.required
import { spawn, spawnSync } from 'node:child_process'
import { createWriteStream, existsSync, readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { startCronTicker } from './cron-ticker.mjs'
import { localVariables, writeBesideBuild } from './local-vars.mjs'

const port = process.env.PORT || '8787'
const host = process.env.HOST || 'localhost'
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

if (process.env.SKIP_BUILD !== '1' || !existsSync('dist/server/wrangler.json')) {
  const build = spawnSync(npm, ['run', 'build', '--silent'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const persistTo = process.env.PERSIST_TO || '.wrangler/state'
const builtConfig = process.env.CONFIG || 'dist/server/wrangler.json'
const cronInterval = Number(process.env.CRON_INTERVAL ?? 60)
if (!Number.isFinite(cronInterval) || cronInterval < 0) {
  console.error('CRON_INTERVAL is a number of seconds (0: never).')
  process.exit(2)
}

// The local variables: ENV_FILE, else the project's .dev.vars, whole. The build keeps in
// dist/server/.dev.vars only the secrets `[secrets] required` lists, and wrangler loads from an env
// file only the names the configuration declares; so the file is passed as it is, and a secret it
// sets that the configuration does not declare (TURNSTILE_SECRET_KEY) is declared in a copy of the
// built configuration served instead (dist/server/wrangler.local-<port>.json). Names are printed,
// never values. The copy sits beside the build (its paths are relative to it), where wrangler
// reloads every server it runs from dist/server when a file changes: so each port has its own
// copy, written only when its content changes, and whole (writeBesideBuild), and starting one
// server never restarts another mid-request.
const envFile = process.env.ENV_FILE
  ? resolve(process.env.ENV_FILE)
  : existsSync('.dev.vars')
    ? resolve('.dev.vars')
    : ''
const local = localVariables(envFile, builtConfig, '.dev.vars.example')
let config = builtConfig
if (local.addSecrets.length) {
  const built = JSON.parse(readFileSync(builtConfig, 'utf8'))
  built.secrets = { ...built.secrets, required: [...(built.secrets?.required ?? []), ...local.addSecrets] }
  config = join(dirname(builtConfig), `${basename(builtConfig, '.json')}.local-${port}.json`)
  writeBesideBuild(config, JSON.stringify(built, null, 2))
}
if (envFile) {
  console.log(`  Variables from ${process.env.ENV_FILE ? envFile : '.dev.vars'}: ${local.names.join(', ') || 'none'}`)
  if (local.unknown.length)
    console.warn(`  Not a variable of this site (see .dev.vars.example), so not loaded: ${local.unknown.join(', ')}`)
}
const quiet = { CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', ...process.env }

// The local enquiry database (D1 inside workerd, kept under persistTo) gets the schema in
// migrations/ before the server starts; applying them again is a no-op (scripts/local-migrations.mjs).
if (process.env.SKIP_MIGRATIONS !== '1') {
  const { applyAndReport } = await import('./local-migrations.mjs')
  await applyAndReport({ config, persistTo })
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
if (envFile) args.push('--env-file', envFile)

const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
console.log(`\n  Serving the production build on workerd at ${origin}`)
console.log(
  cronInterval > 0
    ? `  The scheduled handler (deliveries due, retention) runs every ${cronInterval} s, as the Cron Trigger does in production\n`
    : `  The scheduled handler runs only when asked: curl ${origin}/cdn-cgi/handler/scheduled\n`,
)

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
const ticker = cronInterval > 0 ? startCronTicker(origin, cronInterval * 1000) : undefined
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    ticker?.stop()
    child.kill(signal)
  })
}
child.on('exit', (code, signal) => {
  ticker?.stop()
  process.exit(code ?? (signal ? 1 : 0))
})
