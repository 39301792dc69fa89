import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { personShell } from '../support/shell-env'

/** The tests run the built Worker: `npm test` builds first; on its own, build when there is none. */
export default function setup(): void {
  if (existsSync('dist/server/wrangler.json')) return
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', env: personShell() })
  if (build.status !== 0) throw new Error('npm run build failed')
}
