/**
 * The artifacts of workflow runs, by run id, as GitHub keeps them: an upload of a name already in
 * the run fails with GitHub's 409 unless `overwrite: true` (upload-artifact's action.yml); an
 * artifact is gone after its `retention-days`
 * (https://docs.github.com/en/actions/using-workflows/storing-workflow-data-as-artifacts).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface StoredArtifact {
  dir: string
  day: number
  retentionDays: number
}

/** The artifacts of workflow runs, by run id, as GitHub keeps them. */
export class ArtifactStore {
  private readonly root = mkdtempSync(join(tmpdir(), 'drill-artifacts-'))
  private readonly runs = new Map<string, Map<string, StoredArtifact>>()
  private serial = 0

  /** Uploads `paths` (relative to `cwd`) as `name` in `runId`; throws GitHub's 409 on a duplicate name without overwrite. */
  upload(
    runId: string,
    name: string,
    cwd: string,
    paths: string[],
    options: { overwrite: boolean; day: number; retentionDays: number },
  ): void {
    const run = this.runs.get(runId) ?? new Map<string, StoredArtifact>()
    this.runs.set(runId, run)
    if (run.has(name) && !options.overwrite) {
      throw new Error(
        'Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run',
      )
    }
    const dir = join(this.root, `${runId}-${name}-${++this.serial}`)
    for (const path of paths) {
      if (!existsSync(join(cwd, path))) throw new Error(`upload-artifact: no files found at ${path}`)
      cpSync(join(cwd, path), join(dir, path), { recursive: true })
    }
    run.set(name, { dir, day: options.day, retentionDays: options.retentionDays })
  }

  download(runId: string, name: string, destination: string, day: number): void {
    const artifact = this.runs.get(runId)?.get(name)
    if (!artifact)
      throw new Error(`Unable to download artifact(s): Artifact not found for name: ${name} (run ${runId})`)
    if (day > artifact.day + artifact.retentionDays) {
      // Guess: an expired artifact is not listed for the run any more, so the action finds none.
      throw new Error(
        `Unable to download artifact(s): Artifact not found for name: ${name} (run ${runId}: it expired after ${artifact.retentionDays} days)`,
      )
    }
    mkdirSync(destination, { recursive: true })
    cpSync(artifact.dir, destination, { recursive: true })
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true })
  }
}
