// @vitest-environment node
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ledger quotes the tests' source text, its ${…} included
/**
 * Every command README.md and docs/ tell a person to run is run by a test exactly as written, or says
 * here why not: a step of the test `chain`, a runbook `block` a drill runs, the `test` that `runs` it
 * (a tripwire on its text), the `same` command as another entry, `measured` by a benchmark, or `byHand`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileCache, minutes, stepNames } from '../../scripts/test.ts'
import { runbookBlocks } from '../drills/support/runbook'
import { documentedCommands } from '../support/documented-commands'

type Where =
  | { chain: 'npm test' | '.ci/run' }
  | { block: true }
  | { test: string; runs: string }
  | { same: string }
  | { measured: string }
  | { byHand: string }

const LOCAL_DOORS = 'tests/e2e/local-doors.spec.ts'
const FIRST_DEPLOY = 'tests/drills/first-deploy.test.ts'
const HELP = 'tests/drills/wrangler-help.test.ts'
const NEEDS_ACCOUNT =
  "needs Cloudflare's own service (a browser sign-in, or the live log stream); its --help is checked in tests/drills/wrangler-help.test.ts"

const LEDGER: Record<string, Where> = {
  // The test command, and what it runs.
  'npm test': { chain: '.ci/run' },
  'bash .ci/run': { chain: '.ci/run' }, // CI's own entry point on a fresh clone
  'npm ci': { chain: '.ci/run' },
  'npm ci && npm test': { chain: '.ci/run' },
  'CI=true npm test': { chain: '.ci/run' },
  'npm run typecheck': { chain: 'npm test' },
  'npm run lint': { chain: 'npm test' },
  'npm run test:unit': { chain: 'npm test' },
  'npm run build': { chain: 'npm test' },
  'npm run check:size': { chain: 'npm test' },
  'npm run test:worker': { chain: 'npm test' },
  'npm run build && npm run test:worker': { chain: 'npm test' },
  'npm run test:drills': { chain: 'npm test' },
  'npm run build && npm run test:drills': { chain: 'npm test' },
  'npm run check:dev': { chain: 'npm test' },
  'npm run check:deploy': { chain: 'npm test' },
  'npm run audit': { chain: 'npm test' },
  'npm run test:e2e': { chain: 'npm test' },
  'npm run test:engines': { chain: 'npm test' },

  // The local doors: README.md and docs/desk.md, in a checkout of the repository.
  'npm ci && npm start': { test: LOCAL_DOORS, runs: "repo.spawn('npm start'" },
  'npm start': { test: LOCAL_DOORS, runs: "repo.spawn('npm start'" },
  'PORT=<port> SKIP_BUILD=1 npm start': {
    test: 'tests/engines/global-setup.ts',
    runs: 'PORT=${ENGINES_PORTS.site} SKIP_BUILD=1 npm start',
  },
  'npm run dev': { test: LOCAL_DOORS, runs: 'npm run dev -- --port ${DEV_PORT}' },
  'npm run admin-token': { test: LOCAL_DOORS, runs: 'npm run admin-token -- --port ${KEYS_PORT}' },
  'npm run schema:webhooks': { test: 'tests/unit/webhook-schema.test.ts', runs: "'run', 'schema:webhooks'" },
  'npm run count:comments': { test: 'tests/unit/count-comments.test.ts', runs: "'run', 'count:comments'" },
  'npm run count:lines': { test: 'tests/unit/count-comments.test.ts', runs: "'run', 'count:lines'" },
  'npm run webhook-receiver': { test: LOCAL_DOORS, runs: 'npm run webhook-receiver -- --port ${HOOKS_PORT}' },
  'npm run check:config -- --env-file <file>': {
    test: 'tests/unit/webhooks.test.ts',
    runs: "['run', 'check:config', '--', '--env-file', file]",
  },
  'curl -H "Cf-Access-Jwt-Assertion: <token>" http://localhost:8787/admin': {
    test: LOCAL_DOORS,
    runs: 'curl -H "Cf-Access-Jwt-Assertion: <token>" ${origin}/admin',
  },
  'curl http://localhost:8787/cdn-cgi/handler/scheduled': {
    test: LOCAL_DOORS,
    runs: 'curl http://localhost:${PORT}/cdn-cgi/handler/scheduled',
  },
  'npm run enquiries': { test: LOCAL_DOORS, runs: "repo.run('npm run enquiries')" },
  'npm run enquiries -- retry <id>': { test: LOCAL_DOORS, runs: 'npm run enquiries -- retry ${id}' },
  'npm run enquiries -- retry': { same: 'npm run enquiries -- retry <id>' },
  'npm run enquiries -- setup': { test: 'tests/unit/ops-setup.test.ts', runs: "'enquiries', '--', 'setup'" },
  'sudo apt-get install chromium chromium-headless-shell firefox-esr webkit2gtk-driver xvfb curl openssl': {
    test: '.ci/run',
    runs: 'apt-get install -y -qq "${missing[@]}"', // each of these packages whose program is missing
  },
  "curl -X POST https://<domain>/api/contact -H 'Origin: https://<domain>' -d 'name=Test&email=you@example.com&subject=general&message=held%20check'":
    { test: LOCAL_DOORS, runs: "c.command.startsWith('curl -X POST ')" },
  'npm run images': { test: 'tests/e2e/images.spec.ts', runs: "('npm', ['run', 'images']" },
  'npm run icons': {
    test: 'tests/unit/icon.test.tsx',
    runs: 'toBe(await iconSprite())', // the function `npm run icons` writes the sprite with
  },
  'npm run check:config': { test: 'tests/drills/preview.test.ts', runs: "drill.sh('npm run check:config')" },
  'npm run cf-typegen': { test: HELP, runs: "'npm run cf-typegen'" },

  // The runbook (docs/operations/): its marked blocks, and what it writes inline.
  'npm run go-live': { block: true },
  'npm run deploy -- --secrets-file ~/akshara.secrets': { block: true },
  'npm run deploy': { same: 'npm run deploy -- --secrets-file ~/akshara.secrets' },
  'npm run d1:migrate:previews': { block: true },
  'npm run enquiries -- setup --remote': { block: true },
  'npm run enquiries -- --remote --status pending': {
    test: FIRST_DEPLOY,
    runs: "drill.sh('npm run enquiries -- --remote --status pending')",
  },
  'npm run enquiries -- --remote --status held': {
    test: FIRST_DEPLOY,
    runs: "drill.sh('npm run enquiries -- --remote --status held')",
  },
  'npm run enquiries -- --remote': { same: 'npm run enquiries -- --remote --status pending' },
  'npm run prove-delivery -- --url <production url>': { block: true },
  'npm run prove-delivery -- --url <site>': { same: 'npm run prove-delivery -- --url <production url>' },
  'npm run prove-delivery -- --url <url>': { same: 'npm run prove-delivery -- --url <production url>' },
  'npm run prove-delivery -- --url …': { same: 'npm run prove-delivery -- --url <production url>' },
  'npm run smoke -- --production': { block: true },
  'npm run smoke -- --url https://<domain> --wait 1800': { block: true },
  'npm run smoke -- --url <url>': {
    test: 'tests/drills/push-to-main.test.ts',
    runs: 'drill.sh(`npm run smoke -- --url ${preview?.url}`)',
  },
  'npm run smoke -- --url …': { same: 'npm run smoke -- --url <url>' },
  'npm ci --ignore-scripts': { test: 'tests/drills/support/job.ts', runs: '/^npm ci( --ignore-scripts)?$/' },
  'curl -s https://<domain>/api/health': {
    test: FIRST_DEPLOY,
    runs: 'drill.sh(`curl -s https://${domain}/api/health`)',
  },
  'curl -i https://<domain>/admin': { test: FIRST_DEPLOY, runs: 'drill.sh(`curl -i https://${domain}/admin`)' },
  'npx wrangler secret put CONTACT_FORM_ACCESS_KEY': { block: true },
  'npx wrangler secret put TURNSTILE_SECRET_KEY': {
    test: FIRST_DEPLOY,
    runs: "drill.sh('npx wrangler secret put TURNSTILE_SECRET_KEY'",
  },
  'npx wrangler secret delete TURNSTILE_SECRET_KEY': {
    test: FIRST_DEPLOY,
    runs: "drill.sh('npx wrangler secret delete TURNSTILE_SECRET_KEY'",
  },
  'npx wrangler d1 create akshara-labs-enquiries': { block: true },
  'npx wrangler d1 create akshara-labs-enquiries-preview': { block: true },
  'npx wrangler d1 migrations apply ENQUIRIES --remote': { block: true },
  'npx wrangler deployments status': { block: true },
  'npx wrangler deployments list': { block: true },
  'npx wrangler versions list': { block: true },
  'npm run preview:branch -- --name <preview name>': { block: true },
  'npm run preview:branch -- --name <preview name> --delete': { block: true },
  'npx wrangler d1 create akshara-labs-enquiries-staging': { block: true },
  'npx wrangler versions secret put <secret name>': { block: true },
  'npx wrangler secret put <name>': { same: 'npx wrangler secret put CONTACT_FORM_ACCESS_KEY' },
  'npx wrangler secret put WEBHOOK_ENDPOINTS': { same: 'npx wrangler secret put CONTACT_FORM_ACCESS_KEY' },
  'npx wrangler secret put WEBHOOK_SECRETS': { same: 'npx wrangler secret put CONTACT_FORM_ACCESS_KEY' },
  'npm run smoke -- --production --version <version id>': { block: true },
  'npm run smoke -- --url <production url> --version <version id>': { block: true },
  'npx wrangler rollback <version id> --message "<why>"': { block: true },
  'npx wrangler d1 time-travel restore ENQUIRIES --bookmark=<bookmark>': { block: true },
  'npx wrangler d1 create --help': { test: HELP, runs: "[...path, '--help']" },
  'npx wrangler d1 migrations apply --help': { test: HELP, runs: "[...path, '--help']" },
  'npx wrangler deploy --help': { test: HELP, runs: "[...path, '--help']" },
  'npx wrangler secret put --help': { test: HELP, runs: "[...path, '--help']" },
  'npx wrangler rollback --help': { test: HELP, runs: "[...path, '--help']" },
  'npx wrangler login --help': { test: HELP, runs: "[...path, '--help']" },
  'npx wrangler <command> --help': { same: 'npx wrangler deploy --help' },
  'npx wrangler …': { byHand: 'shorthand for the wrangler commands written out beside it' },
  'npx wrangler login': { byHand: NEEDS_ACCOUNT },
  'npx wrangler tail': { byHand: NEEDS_ACCOUNT },
  'npx wrangler tail --format json --search \'"event":"contact"\'': { byHand: NEEDS_ACCOUNT },

  // Benchmarks: they print figures; the documents give the current ones, the log the dated ones.
  'npm run bench': { measured: 'docs/performance.md' },
  'BENCH_SKIP_LOAD=1 npm run bench': { measured: 'docs/log/results.md' },
  'BENCH_RUNS=1 BENCH_SKIP_LOAD=1 npm run bench': { measured: 'docs/log/results.md' },
  'BENCH_ONLY=cpu npm run bench': { measured: 'docs/performance.md' },
  'npm run fuzz': { measured: 'docs/security.md' },
  'npm run load': { measured: 'docs/contact.md' },
  'npm run flood': { measured: 'docs/contact.md' },

  // Not run by a test.
  'npm run format': {
    byHand: 'it rewrites files; npm run lint (in npm test) fails on any file it would change',
  },
  'npm run screenshots': {
    byHand: 'it writes pictures for a person to look at; the pages it draws are checked by the browser tests',
  },
  'npx playwright install chromium': {
    byHand: "it downloads Playwright's browser, the fallback when no Chromium is installed; the tests use Debian's",
  },
  'npm audit': { byHand: 'named in the runbook as what the audit step (npm run audit, in npm test) runs' },
  'git clone': { byHand: 'the first step of the fresh-clone run docs/performance.md reports; CI starts from one' },
}

const documented = documentedCommands()
const testSteps = stepNames().map((name) => `npm run ${name}`)
const ciRun = readFileSync('.ci/run', 'utf8')
const markedCommands = runbookBlocks()
  .filter((b) => b.marked)
  .flatMap((b) => b.text.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()))

describe('every command the docs tell a person to run is run by a test as written, or says why not', () => {
  it('finds the commands of README.md and docs/', () => {
    expect(documented.length).toBeGreaterThanOrEqual(60)
    expect(documented.map((c) => c.command)).toContain('npm ci && npm start')
  })

  it('every documented command has a line in the ledger', () => {
    const missing = documented.filter((c) => !(c.command in LEDGER)).map((c) => `${c.command}  (${c.where.join(', ')})`)
    expect(missing).toEqual([])
  })

  it('every line of the ledger is still documented', () => {
    const written = new Set(documented.map((c) => c.command))
    expect(Object.keys(LEDGER).filter((command) => !written.has(command))).toEqual([])
  })

  it.each(Object.entries(LEDGER))('%s', (command, where) => {
    if ('chain' in where) {
      if (where.chain === '.ci/run') {
        expect(ciRun).toMatch(/^npm ci && npm test$/m)
        expect(ciRun).toMatch(/^export CI=true$/m)
      } else {
        // Each `npm run x` of it is a step of npm test's chain, in the same order.
        const positions = command.split(' && ').map((part) => testSteps.indexOf(part))
        expect(
          positions.every((p) => p >= 0),
          `${command} in npm test`,
        ).toBe(true)
        expect([...positions].sort((a, b) => a - b)).toEqual(positions)
      }
    } else if ('block' in where) {
      expect(markedCommands, 'a line of a block marked for a drill in docs/operations/').toContain(command)
    } else if ('test' in where) {
      expect(readFileSync(where.test, 'utf8'), `${where.test} runs it`).toContain(where.runs)
    } else if ('same' in where) {
      const target = LEDGER[where.same]
      expect(target, where.same).toBeDefined()
      expect(target && !('same' in target) && !('byHand' in target)).toBe(true)
    } else if ('measured' in where) {
      // The doc gives the current figure and the command; the dated sittings are in the log.
      expect(readFileSync(where.measured, 'utf8')).toContain(`\`${command}\``)
      expect(readFileSync('docs/log/results.md', 'utf8'), 'the log holds dated figures').toMatch(
        /\d{1,2} [A-Z][a-z]+ \d{4}/,
      )
    } else {
      expect(where.byHand.length).toBeGreaterThan(20)
    }
  })
})

describe('npm test’s summary of its steps', () => {
  it('writes each wall-clock time as m:ss, rounded to the second', () => {
    expect([0, 4.4, 59.6, 61, 659.6, 662].map(minutes)).toEqual(['0:00', '0:04', '1:00', '1:01', '11:00', '11:02'])
  })

  it('gives every step Node’s compile cache inside node_modules, or the one already set', () => {
    expect(compileCache({})).toBe(join(process.cwd(), 'node_modules', '.cache', 'node-compile-cache'))
    expect(compileCache({ NODE_COMPILE_CACHE: '/elsewhere' })).toBe('/elsewhere')
  })
})
