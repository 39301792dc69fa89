import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The engine smoke suite (tests/engines/): Firefox ESR and WebKitGTK against `npm start`, one
// file per engine, run side by side, with one site for both (global-setup.ts).
export default defineConfig({
  resolve: { alias: { '~': fileURLToPath(new URL('../../app', import.meta.url)) } },
  test: {
    root: '.',
    include: ['tests/engines/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/engines/global-setup.ts'],
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
})
