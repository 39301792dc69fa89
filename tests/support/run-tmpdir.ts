import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * For a run's start (a suite's global set-up, the Playwright config, the bench): points TMPDIR, for
 * this process and every process it starts from now on (the test processes too), at a new folder,
 * and returns what removes it when the run ends.
 * Some programs leave their temporary files behind when stopped: Miniflare's `dispose()` removes
 * its folder without waiting, and xvfb-run keeps its folder when stopped with its process group.
 */
export function temporaryFolderForRun(prefix: string): () => void {
  const folder = mkdtempSync(join(tmpdir(), `${prefix}-`))
  process.env.TMPDIR = folder
  // maxRetries: a program stopped a moment ago (a browser) may still be writing in it.
  return () => rmSync(folder, { recursive: true, force: true, maxRetries: 5 })
}
