import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS, resolveChromium } from './tests/support/chromium'
import { temporaryFolderForRun } from './tests/support/run-tmpdir'
import {
  ACCESS_KEY_FILE,
  ACCESS_KEYS_PORT,
  FORM_SERVICE_PORT,
  PORT_BASE,
  SITE_LOG_FILE,
  SITE_ORIGIN,
  SITE_PORT,
  writeTestEnvFile,
} from './tests/support/servers'

// Every process the run starts (its servers, the test workers, and what the tests start) keeps its
// temporary files in a folder of the run's own, removed when the run's own process exits, after
// the servers have stopped: wrangler stopped with SIGTERM can exit before Miniflare has removed its
// folder. Set up here, not in a global set-up, because Playwright starts the servers before that;
// the test workers load this file too, and find the folder already made.
if (!process.env.E2E_RUN_TMPDIR) {
  process.on('exit', temporaryFolderForRun('e2e-run'))
  process.env.E2E_RUN_TMPDIR = process.env.TMPDIR
}

const executablePath = resolveChromium({ headlessShell: true })
const envFile = writeTestEnvFile()

// The production build is served by `npm start` (workerd via wrangler dev). `npm test` builds first,
// so the server skips the build; `npm run test:e2e` on its own builds when dist/ is missing.
// One production server, configured as in production, for every browser test (its output kept in a
// file for a person chasing a failure); only the Turnstile widget's tests start one of their own
// with Turnstile on (tests/support/site-server.ts). What the Worker answers, in every other
// configuration, is tested in workerd without a browser (tests/worker/).
const site = (port: number, envFile: string, logFile?: string) => ({
  command: `npm start`,
  url: `http://localhost:${port}/`,
  env: {
    PORT: String(port),
    SKIP_BUILD: '1',
    ENV_FILE: envFile,
    PERSIST_TO: `.wrangler/e2e-${PORT_BASE}/state-${port}`,
    // No browser test needs the scheduled handler; npm start's own ticker is proven in
    // local-doors.spec.ts, the handler itself in tests/worker/.
    CRON_INTERVAL: '0',
    WRANGLER_LOG_LEVEL: logFile ? 'info' : 'warn',
    ...(logFile ? { LOG_FILE: logFile } : {}),
  },
  reuseExistingServer: false,
  timeout: 120_000,
  // The site's output goes to its log file only (tests/support/servers.ts: SITE_LOG_FILE).
  stdout: logFile ? ('ignore' as const) : ('pipe' as const),
  stderr: logFile ? ('ignore' as const) : ('pipe' as const),
  gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
})

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: SITE_ORIGIN,
    // No trace by default: recording one for every test was a fifth of the browser tests' CPU, and
    // a CI log cannot hand one back. To chase a failure: `npx playwright test <file> --trace on`.
    trace: 'off',
    // The visitor asks for reduced motion unless a test says otherwise: headless Chromium draws the
    // background's 18 running animations in software, a third of the suite's CPU, while few tests
    // are about motion. Those that are, and the console and CSP checks across every page, use the
    // default ('no-preference'): motion.spec.ts, paint-first.spec.ts, shell.spec.ts, security.spec.ts.
    reducedMotion: 'reduce',
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      command: 'node tests/support/form-service.ts',
      url: `http://127.0.0.1:${FORM_SERVICE_PORT}/__health`,
      env: { FORM_SERVICE_PORT: String(FORM_SERVICE_PORT), FORM_SERVICE_PLAN: 'paid' },
      reuseExistingServer: false,
      timeout: 10_000,
    },
    {
      command: 'node tests/support/access-key-server.ts',
      url: `http://127.0.0.1:${ACCESS_KEYS_PORT}/__health`,
      env: { ACCESS_KEYS_PORT: String(ACCESS_KEYS_PORT), ACCESS_KEY_FILE },
      reuseExistingServer: false,
      timeout: 10_000,
    },
    site(SITE_PORT, envFile, SITE_LOG_FILE),
  ],
})
