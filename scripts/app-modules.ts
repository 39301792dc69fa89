// Lets a script run by plain Node (npm scripts run Node 24, which strips TypeScript types) import
// server modules from app/ as they are written for Vite: `~/…` is app/, an import without an
// extension is the `.ts` / `.tsx` file (or a folder's `index.ts`), and `cloudflare:*` modules (only inside workerd) resolve
// to an empty module, which only code that runs in workerd would reach. Used by
// `npm run enquiries -- setup`, so it reports the delivery set-up with the Worker's own code.
import { existsSync } from 'node:fs'
import { registerHooks } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

const APP = fileURLToPath(new URL('../app/', import.meta.url))

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.startsWith('cloudflare:')) return { url: 'data:text/javascript,export {}', shortCircuit: true }
    const local = specifier.startsWith('~/')
      ? `${APP}${specifier.slice(2)}`
      : specifier.startsWith('.') && context.parentURL?.includes('/app/')
        ? fileURLToPath(new URL(specifier, context.parentURL))
        : null
    if (local && !/\.[cm]?[jt]sx?$/.test(local)) {
      for (const candidate of [`${local}.ts`, `${local}.tsx`, `${local}/index.ts`]) {
        if (existsSync(candidate)) return { url: pathToFileURL(candidate).href, shortCircuit: true }
      }
    }
    if (local) return { url: pathToFileURL(local).href, shortCircuit: true }
    return nextResolve(specifier, context)
  },
})
