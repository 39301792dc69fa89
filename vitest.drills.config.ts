import { defineConfig } from 'vitest/config'

// Drills: the operations procedures run end to end, offline, with the pinned wrangler against the
// stand-in Cloudflare API (tests/support/cloudflare). Node environment; each drill file starts its
// own stand-in and runs wrangler and the project's scripts as child processes. They deploy the
// build `npm run build` made (npm test builds first). Files run in parallel, one stand-in each
// (DRILL_WORKERS, default 3: most of a drill's time is spent waiting on wrangler and workerd).
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/drills/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: Number(process.env.DRILL_WORKERS || 3),
    fileParallelism: true,
  },
})
