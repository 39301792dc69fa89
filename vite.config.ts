import { fileURLToPath } from 'node:url'
import { cloudflare } from '@cloudflare/vite-plugin'
import tailwindcss from '@tailwindcss/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { startCronTicker } from './scripts/cron-ticker.mjs'
import { buildFacts } from './scripts/wrangler-facts.ts'

/**
 * `npm run dev` runs the Worker's scheduled handler every CRON_INTERVAL seconds (default 60; 0:
 * never), as the Cron Trigger does in production (scripts/cron-ticker.mjs, shared with `npm start`).
 */
function localCron(): Plugin {
  return {
    name: 'local-cron',
    apply: 'serve',
    configureServer(server) {
      const seconds = Number(process.env.CRON_INTERVAL ?? 60)
      if (!(seconds > 0) || !server.httpServer) return
      const ticker = startCronTicker(() => server.resolvedUrls?.local[0], seconds * 1000)
      server.httpServer.once('close', () => ticker.stop())
    },
  }
}

/**
 * In the client build, Start's server-function serialization adapter is app/lib/server-fn-adapter.ts:
 * the same adapter, with the RPC client (seroval among it, ≈ 12 KB gzip) loaded on the first call
 * instead of with every page (see that file). Start's client entry imports the adapter by this
 * relative path; the build fails if that import is gone, so an upgrade that moves it is seen.
 */
function lazyServerFnClient(): Plugin {
  const startsAdapter = /start-client-core[\\/]dist[\\/]esm[\\/]client[\\/]hydrateStart\.js$/
  let swapped = false
  return {
    name: 'lazy-server-fn-client',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== './ServerFunctionSerializationAdapter.js' || !importer || !startsAdapter.test(importer)) return
      swapped = true
      return fileURLToPath(new URL('./app/lib/server-fn-adapter.ts', import.meta.url))
    },
    buildEnd(error) {
      if (!error && !swapped)
        this.error(
          "Start's client entry no longer imports ./ServerFunctionSerializationAdapter.js: see app/lib/server-fn-adapter.ts",
        )
    },
  }
}

/**
 * The client entry's chunk (the framework chunk) starts with V8's explicit compile hint: Chrome then
 * compiles its functions while the file streams in, on a background thread, instead of on the main
 * thread the first time each runs (hydration calls most of them). https://v8.dev/blog/explicit-compile-hints
 * The hint counts only as the file's first line, so it is added after Vite has written its own there
 * (`__vite__mapDeps`, in its generateBundle hook, after the file names' hashes, as this is).
 * Figures: docs/performance.md, "Where TBT comes from now".
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad'

function compileHints(): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle))
          if (chunk.type === 'chunk' && chunk.isEntry) chunk.code = `${COMPILE_HINT}\n${chunk.code}`
      },
    },
  }
}

export default defineConfig({
  server: { port: 3000 },
  // Facts written once, in wrangler.toml (the rate limiter's period), as constants in the code.
  define: buildFacts(),
  resolve: {
    alias: [
      // tsconfig's `~/*` path, for the dev server's Worker runner too (the build resolves it itself).
      { find: /^~\//, replacement: fileURLToPath(new URL('./app/', import.meta.url)) },
    ],
  },
  environments: {
    // The Worker minified: less for workerd to parse at each isolate's start; its stack traces map
    // back through the uploaded source maps. Figures: docs/performance.md, "The Worker's bundle".
    ssr: { build: { minify: true } },
    client: {
      build: {
        rolldownOptions: {
          output: {
            // First-load JavaScript, as few files as it can be (docs/performance.md, "Chunks"):
            codeSplitting: {
              groups: [
                // Everything the client entry imports statically, in one chunk. Left to itself,
                // the bundler splits what the route chunks share with the entry (React, the
                // router's core, the site's identity) into six more files that every page loads.
                { name: 'framework', tags: ['$initial'] },
                // The section widgets that eight or more pages draw, in one chunk instead of one
                // file each; a widget fewer pages use stays with them.
                { name: 'sections', test: /app[\\/]components[\\/]sections[\\/]/, minShareCount: 8 },
              ],
            },
          },
        },
      },
    },
  },
  plugins: [
    cloudflare({ viteEnvironment: { name: 'ssr' } }),
    tailwindcss(),
    tanstackStart({
      srcDirectory: 'app',
      router: {
        codeSplittingOptions: {
          // Loaders that call the server (the desk's, the withdraw and early-access pages', the products
          // panel's) go in one chunk with their page, fetched on the way there: the route tree every page
          // loads keeps neither their code nor a second chunk's name.
          splitBehavior: ({ routeId }) =>
            routeId.startsWith('/admin') ||
            routeId === '/withdraw' ||
            routeId.startsWith('/early-access/') ||
            routeId === '/products'
              ? [['loader', 'component']]
              : undefined,
        },
      },
    }),
    viteReact(),
    lazyServerFnClient(),
    compileHints(),
    localCron(),
  ],
})
