// A pull request's Worker Preview, as .github/workflows/preview-deploy.yml and preview-delete.yml
// run it (docs/operations.md, "Per-pull-request previews"). Run from a checkout of the default
// branch; the pull request's build is data in --build (scripts/ci/preview-build.ts).
//
//   node scripts/ci/preview.ts check  --build <dir>
//       The build's wrangler configuration is the default branch's, its migrations are SQL files,
//       and the previews' database is not production's. No token needed.
//   node scripts/ci/preview.ts deploy --build <dir> --pr <number> --message <text>
//       Checks again, applies the build's migrations to the previews' database, runs
//       `wrangler preview --name pr-<number>`, reads the Preview's URL from wrangler's output file,
//       smoke-tests it (through Access with CF_ACCESS_CLIENT_ID/SECRET when set), and sets the step
//       output `url`. Needs CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID.
//   node scripts/ci/preview.ts delete --pr <number>
//       `wrangler preview delete --name pr-<number>`; a Preview that is already gone counts as deleted.
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { migratePreviews } from '../d1-migrate-previews.ts'
import { readWranglerConfig } from '../ops-config.ts'
import { smoke } from '../smoke.ts'
import {
  accessHeaders,
  fail,
  failure,
  type OutputEntry,
  outputEntry,
  reportNotice,
  setOutput,
  summary,
  wrangler,
} from './lib.ts'
import { previewBuildProblems, writeDeployConfig } from './preview-build.ts'

/** wrangler's code for "this Preview does not exist" (PREVIEW_NOT_FOUND_ERR_CODE in its source). */
export const PREVIEW_NOT_FOUND = 10025

export interface PreviewEntry extends OutputEntry {
  preview_name: string
  preview_urls?: string[]
  deployment_urls?: string[]
}

export function previewName(pr: string | undefined): string {
  if (!pr || !/^[1-9]\d{0,8}$/.test(pr)) fail(`--pr must be a pull request number, not ${JSON.stringify(pr)}`)
  return `pr-${pr}`
}

/** The Preview's URL from wrangler's `preview` output entry: its stable URL, else this deployment's. */
export function previewUrl(entry: PreviewEntry | undefined): string | undefined {
  return entry?.preview_urls?.[0] ?? entry?.deployment_urls?.[0]
}

/**
 * `wrangler preview` with the checked build. Returns the Preview's URL, or stops the script
 * explaining why there is none.
 */
export async function deployPreview(options: {
  config: string
  name: string
  message: string
  vars?: string[]
  secretsFile?: string
}): Promise<string> {
  const args = ['preview', '--config', options.config, '--name', options.name, '--message', options.message]
  for (const v of options.vars ?? []) args.push('--var', v)
  if (options.secretsFile) args.push('--secrets-file', options.secretsFile)
  const run = await wrangler(args)
  if (run.status !== 0) fail(`wrangler preview --name ${options.name} failed: ${failure(run).message}`)
  const url = previewUrl(outputEntry<PreviewEntry>(run, 'preview'))
  if (!url) {
    fail(
      `wrangler preview --name ${options.name} reported no URL in its output file (preview_urls must be true in wrangler.toml)`,
    )
  }
  return url
}

/** Smoke-tests a Preview's URL through Access when a service token is set; stops the script on failure. */
export async function smokePreview(url: string): Promise<void> {
  const { origin, problems } = await smoke(url, { headers: accessHeaders() })
  if (problems.length > 0) fail(`The smoke test failed on ${origin}:\n${problems.join('\n')}`)
  console.log(`smoke: ${origin} serves the home page and /api/health is ok`)
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      build: { type: 'string' },
      pr: { type: 'string' },
      message: { type: 'string' },
    },
  })
  const [command] = positionals
  const source = readWranglerConfig('wrangler.toml')

  if (command === 'check' || command === 'deploy') {
    if (!values.build) fail('give the pull request’s build with --build <dir>')
    const problems = previewBuildProblems(values.build, source)
    if (problems.length > 0) {
      fail(
        `This pull request's build cannot be deployed as a Preview:\n  ${problems.join('\n  ')}\n` +
          'A change to the Worker’s configuration gets its Preview once it is on the default branch (docs/operations.md, "Per-pull-request previews").',
      )
    }
    if (command === 'check') {
      console.log('The build’s configuration is the default branch’s; its migrations are SQL files only.')
      return
    }
    const name = previewName(values.pr)
    try {
      await migratePreviews({ migrationsDir: join(values.build, 'migrations') })
    } catch (error) {
      fail((error as Error).message)
    }
    const url = await deployPreview({
      config: writeDeployConfig(values.build),
      name,
      message: values.message ?? `Pull request #${values.pr}`,
    })
    console.log(`Preview ${name}: ${url}`)
    await smokePreview(url)
    setOutput('url', url)
    summary(`Preview \`${name}\`: ${url}`)
    return
  }

  if (command === 'delete') {
    const name = previewName(values.pr)
    const run = await wrangler([
      'preview',
      'delete',
      '--config',
      'wrangler.toml',
      '--name',
      name,
      '--skip-confirmation',
    ])
    if (run.status === 0) {
      console.log(`Preview ${name} deleted.`)
      return
    }
    const { code, message } = failure(run)
    if (code === PREVIEW_NOT_FOUND) {
      reportNotice(`Preview ${name} does not exist (never made, or already deleted): nothing to delete.`)
      return
    }
    fail(`wrangler preview delete --name ${name} failed: ${message}${code ? ` [code ${code}]` : ''}`)
  }

  fail('usage: node scripts/ci/preview.ts check|deploy|delete …')
}

if (import.meta.main) await main()
