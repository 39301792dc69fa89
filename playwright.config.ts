import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS, resolveChromium } from './tests/support/chromium'
import {
  ACCESS_KEY_FILE,
  ACCESS_KEYS_PORT,
  FORM_SERVICE_PORT,
  NO_KEY_SITE_PORT,
  PORT_BASE,
  SITE_LOG_FILE,
  SITE_ORIGIN,
  SITE_PORT,
  writeTestEnvFiles,
} from './tests/support/servers'

const executablePath = resolveChromium()
const envFiles = writeTestEnvFiles()

// The production build is served by `npm start` (workerd via wrangler dev). `npm test` builds first,
// so the servers skip the build; `npm run test:e2e` on its own builds when dist/ is missing.
// One server per configuration: the main site (as in production, its output kept in a file for the
// tests that read its log lines) and a fresh clone's. Tests that need another configuration start
// their own (tests/support/site-server.ts).
const site = (port: number, envFile: string, logFile?: string) => ({
  command: `npm start`,
  url: `http://localhost:${port}/`,
  env: {
    PORT: String(port),
    SKIP_BUILD: '1',
    ENV_FILE: envFile,
    PERSIST_TO: `.wrangler/e2e-${PORT_BASE}/state-${port}`,
    // The tests run the scheduled handler themselves, when they mean to (tests/support/enquiries.ts
    // runCron); npm start's own ticker is proven in local-doors.spec.ts.
    CRON_INTERVAL: '0',
    WRANGLER_LOG_LEVEL: logFile ? 'info' : 'warn',
    ...(logFile ? { LOG_FILE: logFile } : {}),
  },
  reuseExistingServer: false,
  timeout: 120_000,
  // The main site's output goes to its log file only (tests/support/servers.ts: SITE_LOG_FILE).
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
      env: { FORM_SERVICE_PORT: String(FORM_SERVICE_PORT) },
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
    site(SITE_PORT, envFiles.withKey, SITE_LOG_FILE),
    site(NO_KEY_SITE_PORT, envFiles.noKey),
  ],
})
