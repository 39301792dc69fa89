import { defineConfig } from 'vitest/config'
import { longestFirst } from './tests/support/longest-first.ts'

// Drills: the operations procedures run end to end, offline, with the pinned wrangler against the
// stand-in Cloudflare API (tests/support/cloudflare). Node environment. One stand-in Cloudflare and
// one stand-in GitHub API, in a process of their own, serve every drill, and one upload of the build
// `npm run build` made (npm test builds first) serves every drill that starts from a serving
// production (tests/drills/support/global-setup.ts); each drill has its own account, repository and
// data there. Files run side by side (DRILL_WORKERS, default 4; 5 was slower): most of a drill's
// time is spent waiting on wrangler, workerd and the smoke test's patience, and wrangler (about
// 1.4 s of CPU a command, half of it its own start) is what fills the two cores. The files share
// their worker's module graph (`isolate: false`): the stand-in's client and the drills' support
// code load once a worker, not once a file (none mocks, stubs or fakes the clock:
// tests/unit/isolated.test.ts). The longest drills start first, in the order of their measured
// times: left last, the step would end on one of them alone.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/drills/**/*.test.ts'],
    globalSetup: ['tests/drills/support/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: Number(process.env.DRILL_WORKERS || 4),
    fileParallelism: true,
    sequence: {
      sequencer: longestFirst(new URL('./tests/drills/', import.meta.url), [
        'first-deploy.test.ts',
        'key-rotation.test.ts',
        'preview.test.ts',
        'deploy-failures.test.ts',
        'ci.test.ts',
        'standin-wrangler.test.ts',
        'rollback-guard.test.ts',
        'rollback-secrets.test.ts',
        'push-to-main.test.ts',
        'custom-domain.test.ts',
        'ci-operations.test.ts',
      ]),
    },
  },
})
