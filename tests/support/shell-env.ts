/**
 * Vitest sets variables for its own processes: NODE_ENV=test, TEST, VITEST*, and Vite's MODE, DEV,
 * PROD, SSR and BASE_URL. A person's shell has none of them, and with NODE_ENV=test inherited,
 * `npm run build` and `npm start` build React's development bundle instead of the production one.
 */
const RUNNER_VARIABLES = new Set(['NODE_ENV', 'TEST', 'MODE', 'DEV', 'PROD', 'SSR', 'BASE_URL'])

/** `env` without the variables the test runner set for itself. */
export function personShell(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const shell = { ...env }
  for (const name of Object.keys(shell)) if (RUNNER_VARIABLES.has(name) || name.startsWith('VITEST')) delete shell[name]
  return shell
}
