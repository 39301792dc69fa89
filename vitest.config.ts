import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import viteReact from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { buildFacts } from './scripts/wrangler-facts.ts'

// Unit and component tests: React only, no Start or Cloudflare plugins.
export default defineConfig({
  plugins: [viteReact()],
  define: buildFacts(),
  resolve: {
    alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) },
  },
  test: {
    environment: 'happy-dom',
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    setupFiles: ['tests/unit/setup.ts'],
    restoreMocks: true,
    // Vitest's default for a run is one worker fewer than the cores: one, on a two-core machine.
    // The files are independent, so every core works.
    maxWorkers: availableParallelism(),
  },
})
