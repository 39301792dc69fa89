import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { longestFirst } from '../support/longest-first.ts'

// The longest files start first, so the run does not end on one alone.
const LongestFirst = longestFirst(new URL('./', import.meta.url), [
  'local-migrations.test.ts',
  'fuzz.test.ts',
  'faults.test.ts',
  'deliveries.test.ts',
  'rate-limits.test.ts',
])

// The built Worker in workerd, one per file (support/site.ts). One file more than the cores side by side: a few
// files mostly wait (on 2 cores: 234 s with two, 160 s with three or four). The files share their
// worker's module graph (`isolate: false`): each still starts its own Worker and stand-ins, but
// Miniflare and the fixtures are loaded once a worker, not once a file, a sixth of the step's CPU.
// None mocks, stubs or fakes the clock (tests/unit/isolated.test.ts holds that).
export default defineConfig({
  resolve: { alias: { '~': fileURLToPath(new URL('../../app', import.meta.url)) } },
  test: {
    root: '.',
    include: ['tests/worker/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/worker/global-setup.ts'],
    pool: 'forks',
    isolate: false,
    fileParallelism: true,
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongestFirst },
    testTimeout: 30_000,
    // A delivery finishes after the answer that stored it: the tests wait for it, up to 15 s on a
    // busy machine (vitest's own default is 1 s).
    expect: { poll: { timeout: 15_000, interval: 20 } },
    hookTimeout: 60_000,
  },
})
