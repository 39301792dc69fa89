import { defineConfig } from 'vitest/config'

// Drills: the operations procedures run end to end, offline, with the pinned wrangler against the
// stand-in Cloudflare API (tests/support/cloudflare). Node environment; each drill file starts its
// own stand-in and runs wrangler and the project's scripts as child processes.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/drills/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
})
