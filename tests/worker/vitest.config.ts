import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { longestFirst } from '../support/longest-first.ts'

/**
 * The longest files, two of them mostly waiting (the next rate-limit window, the form service's
 * 10-second timeout), start first: left last, the run would end on one of them alone.
 */
const LongestFirst = longestFirst(new URL('./', import.meta.url), [
  'rate-limits.test.ts',
  'deliveries.test.ts',
  'faults.test.ts',
])

// The Worker's behaviour in workerd (tests/worker/): the built Worker run through Miniflare's API in
// each test file's process (support/site.ts), with stand-ins on 127.0.0.1 for what it calls out
// to. Files run side by side, one more than the cores: a few files spend most of their time
// waiting, and a third file keeps both cores working meanwhile (on 2 cores: 234 s with two side by
// side, 160 s with three or four). A file's tests run one after another, each with a database of
// its own.
export default defineConfig({
  resolve: { alias: { '~': fileURLToPath(new URL('../../app', import.meta.url)) } },
  test: {
    root: '.',
    include: ['tests/worker/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/worker/global-setup.ts'],
    pool: 'forks',
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
