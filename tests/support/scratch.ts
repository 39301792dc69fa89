import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

/** A new folder under the system's temporary folder, removed when the test that made it ends. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
