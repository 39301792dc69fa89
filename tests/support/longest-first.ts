import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * A Vitest sequencer that starts the named files first, in the order given, and every other file in
 * Vitest's own order after them. Vitest starts the files it has timings for longest first, but a
 * fresh clone has none, and then it starts the largest files first: a long file that is small ran
 * last, and the run ended on it alone. `dir` is the folder the files are in (a `file:` URL ending in
 * `/`); a name that is not there fails at once, so a renamed file cannot quietly fall back to last.
 */
export function longestFirst(dir: URL, names: string[]): typeof BaseSequencer {
  const paths = names.map((name) => fileURLToPath(new URL(name, dir)))
  for (const path of paths) if (!existsSync(path)) throw new Error(`${path} is gone: update its config`)
  return class LongestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files)
      const rank = (spec: TestSpecification) => {
        const at = paths.indexOf(spec.moduleId)
        return at === -1 ? paths.length : at
      }
      // Array.prototype.sort is stable: every other file keeps Vitest's order.
      return sorted.sort((a, b) => rank(a) - rank(b))
    }
  }
}
