import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { temporaryFolderForRun } from '../support/run-tmpdir'
import { personShell } from '../support/shell-env'

/**
 * The tests run the built Worker: `npm test` builds first; on its own, build when there is none.
 * The test processes get a temporary folder of their own, removed when the run ends (Miniflare's
 * `dispose()` removes its folder without waiting, and a test process can end before it has).
 */
export default function setup(): () => void {
  if (!existsSync('dist/server/wrangler.json')) {
    const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', env: personShell() })
    if (build.status !== 0) throw new Error('npm run build failed')
  }
  return temporaryFolderForRun('worker-tests')
}
