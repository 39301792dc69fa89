import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { temporaryFolderForRun } from '../support/run-tmpdir'
import { personShell } from '../support/shell-env'

// Builds when there is no build; gives the test processes a temporary folder, removed when the run ends.
export default function setup(): () => void {
  if (!existsSync('dist/server/wrangler.json')) {
    const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', env: personShell() })
    if (build.status !== 0) throw new Error('npm run build failed')
  }
  return temporaryFolderForRun('worker-tests')
}
