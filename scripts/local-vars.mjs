// Which names a local variables file (.dev.vars, or ENV_FILE) sets, and what `npm start` must do
// so that each of them takes effect. Names only: no value is read into anything printed.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/

/** The names a dotenv file assigns, in order, once each. */
export function assignedNames(text) {
  const names = []
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*#/.test(line)) continue
    const name = ASSIGNMENT.exec(line)?.[1]
    if (name && !names.includes(name)) names.push(name)
  }
  return names
}

/** The names `.dev.vars.example` documents, set or commented out (`# NAME=…`). */
export function documentedNames(text) {
  return [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((line) => /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
        .filter(Boolean),
    ),
  ]
}

/**
 * For a variables file and the built Worker's configuration:
 * - `names`: what the file sets;
 * - `addSecrets`: documented names the configuration neither has as a var nor lists in
 *   `[secrets] required` (wrangler would drop them), to declare in the configuration served;
 * - `unknown`: names this site does not read (a typo, or an old name), which are not loaded.
 */
export function localVariables(envFile, configFile, exampleFile) {
  if (!envFile || !existsSync(envFile)) return { names: [], addSecrets: [], unknown: [] }
  const names = assignedNames(readFileSync(envFile, 'utf8'))
  const config = JSON.parse(readFileSync(configFile, 'utf8'))
  const declared = new Set([...Object.keys(config.vars ?? {}), ...(config.secrets?.required ?? [])])
  const documented = new Set(existsSync(exampleFile) ? documentedNames(readFileSync(exampleFile, 'utf8')) : [])
  return {
    names,
    addSecrets: names.filter((name) => !declared.has(name) && documented.has(name)),
    unknown: names.filter((name) => !declared.has(name) && !documented.has(name)),
  }
}

/**
 * Writes a configuration to serve beside the build (its paths are relative to the build's folder),
 * without restarting the other servers wrangler runs from that folder. wrangler watches the folder
 * for the Worker's modules and reloads on any change to a file in it (not on a new file, and not
 * under `.wrangler/`): a reload cuts off every request under way. So the file is written only when
 * its content differs, and whole: first under the folder's `.wrangler/`, then renamed into place,
 * so the watcher sees a new file appear rather than one being written.
 */
export function writeBesideBuild(path, text) {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return
  const staging = join(dirname(path), '.wrangler', 'staging')
  mkdirSync(staging, { recursive: true })
  const temporary = join(staging, `${basename(path)}.${process.pid}`)
  writeFileSync(temporary, text)
  renameSync(temporary, path)
}
