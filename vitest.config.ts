import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import viteReact from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { buildFacts } from './scripts/wrangler-facts.ts'
import { ISOLATED_FILES } from './tests/unit/isolated.ts'

const ISOLATED = ISOLATED_FILES.map((name) => `tests/unit/${name}`)

// Unit and component tests: React only, no Start or Cloudflare plugins.
export default defineConfig({
  plugins: [viteReact()],
  define: buildFacts(),
  resolve: {
    alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) },
  },
  test: {
    environment: 'happy-dom',
    setupFiles: ['tests/unit/setup.ts'],
    restoreMocks: true,
    // Vitest's default for a run is one worker fewer than the cores: one, on a two-core machine.
    // The files are independent, so every core works.
    maxWorkers: availableParallelism(),
    // A file gets a module graph and a DOM of its own only where it needs one: the files that mock a
    // module, stub a global or the environment, or fake the clock. The others share their worker's
    // (Vitest's recipe, "Per-File Isolation Settings"; the list: tests/unit/isolated.ts, held by its
    // test), which spares importing React, Testing Library and happy-dom again for every file.
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], exclude: ISOLATED, isolate: false },
      },
      { extends: true, test: { name: 'unit, isolated', include: ISOLATED } },
    ],
  },
})
