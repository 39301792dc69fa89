import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The drills (docs/operations.md, every section): each runs one procedure end to end with the
// pinned wrangler against the stand-in Cloudflare API (tests/support/cloudflare/), through the same
// scripts and workflow steps the operator and CI run. They deploy the build `npm run build` made.
// Files run in parallel (one stand-in account each); a drill's steps run in order.
//   npm run test:drills
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  resolve: {
    alias: { '~': fileURLToPath(new URL('../../app', import.meta.url)) },
  },
  test: {
    include: ['tests/drills/**/*.drill.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: Number(process.env.DRILL_WORKERS || 3),
    fileParallelism: true,
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
})
