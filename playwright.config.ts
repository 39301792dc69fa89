import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS, resolveChromium } from './tests/support/chromium'
import {
  FORM_SERVICE_PORT,
  NO_KEY_SITE_PORT,
  PORT_BASE,
  SITE_ORIGIN,
  SITE_PORT,
  writeTestEnvFiles,
} from './tests/support/servers'

const executablePath = resolveChromium()
const envFiles = writeTestEnvFiles()

// The production build is served by `npm start` (workerd via wrangler dev). `npm test` builds first,
// so the servers skip the build; `npm run test:e2e` on its own builds when dist/ is missing.
const site = (port: number, envFile: string) => ({
  command: `npm start`,
  url: `http://localhost:${port}/`,
  env: {
    PORT: String(port),
    SKIP_BUILD: '1',
    ENV_FILE: envFile,
    PERSIST_TO: `.wrangler/e2e-${PORT_BASE}/state-${port}`,
    WRANGLER_LOG_LEVEL: 'warn',
  },
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: 'pipe' as const,
  stderr: 'pipe' as const,
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
    trace: 'retain-on-failure',
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
    site(SITE_PORT, envFiles.withKey),
    site(NO_KEY_SITE_PORT, envFiles.noKey),
  ],
})
