// @vitest-environment node
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { secretsIn, trustProblems } from '../../scripts/ci/workflow-trust'
import { scratchDir } from '../support/scratch'

const DIR = '.github/workflows'
const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f))
const read = (file: string) => readFileSync(join(DIR, file), 'utf8')
const workflow = (file: string) => parse(read(file))

const expr = (text: string) => `\${{ ${text} }}`
const CHECKOUT = {
  uses: 'actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1',
  with: { 'persist-credentials': false },
}
const DOWNLOAD = 'actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c'
const TOKEN = { CLOUDFLARE_API_TOKEN: expr('secrets.CLOUDFLARE_PREVIEW_API_TOKEN') }
const INSTALL = { run: 'npm ci --ignore-scripts' }
const AFTER_PREVIEW_BUILD = { workflow_run: { workflows: ['Preview build'], types: ['completed'] } }
const PR_BUILD = { name: 'preview-build', 'run-id': expr('github.event.workflow_run.id') }
/** A workflow of one job, as YAML (JSON is YAML). */
const oneJob = (on: unknown, id: string, job: Record<string, unknown>) =>
  JSON.stringify({ on, permissions: { contents: 'read' }, jobs: { [id]: { 'runs-on': 'ubuntu-latest', ...job } } })

/** Deliberately bad workflows: each mixes a pull request's code with a secret in its own way. */
const BAD: Record<string, [yaml: string, expected: RegExp]> = {
  'a pull_request workflow holding a Cloudflare token': [
    oneJob('pull_request', 'preview', { steps: [CHECKOUT, INSTALL, { run: 'npx wrangler preview', env: TOKEN }] }),
    /runs the pull request's code and names the secret CLOUDFLARE_PREVIEW_API_TOKEN/,
  ],
  'a pull_request workflow naming an environment': [
    oneJob(['pull_request'], 'preview', { environment: 'preview', steps: [{ run: 'echo "$CLOUDFLARE_API_TOKEN"' }] }),
    /names an environment/,
  ],
  'pull_request_target checking out the head of the pull request': [
    oneJob({ pull_request_target: { types: ['closed'] } }, 'delete', {
      steps: [
        { ...CHECKOUT, with: { ref: expr('github.event.pull_request.head.sha'), 'persist-credentials': false } },
        INSTALL,
        { run: 'node scripts/ci/preview.ts delete --pr 1', env: TOKEN },
      ],
    }),
    /checks out the pull request's code in a job holding secrets/,
  ],
  'workflow_run deploying a pull request’s build without checking it': [
    oneJob(AFTER_PREVIEW_BUILD, 'deploy', {
      if: "github.event.workflow_run.event == 'pull_request'",
      steps: [
        CHECKOUT,
        INSTALL,
        { uses: DOWNLOAD, with: { ...PR_BUILD, path: `${expr('runner.temp')}/pr-build` } },
        { run: 'node scripts/ci/preview.ts deploy --build "$RUNNER_TEMP/pr-build" --pr 1', env: TOKEN },
      ],
    }),
    /must pass `node scripts\/ci\/preview\.ts check` before any step that holds a secret/,
  ],
  'workflow_run unpacking a pull request’s build over the checkout': [
    oneJob(AFTER_PREVIEW_BUILD, 'deploy', {
      steps: [
        CHECKOUT,
        { uses: DOWNLOAD, with: PR_BUILD },
        { run: 'node scripts/ci/preview.ts check --build .' },
        { run: 'node scripts/ci/preview.ts deploy --build . --pr 1', env: TOKEN },
      ],
    }),
    /must be downloaded under \$\{\{ runner\.temp \}\}/,
  ],
  'a token in the job’s env, readable by the install': [
    oneJob({ push: { branches: ['main'] } }, 'deploy', {
      env: { CLOUDFLARE_API_TOKEN: expr('secrets.CLOUDFLARE_API_TOKEN') },
      steps: [CHECKOUT, { run: 'npm ci' }, { run: 'npx wrangler deploy' }],
    }),
    /job-level env names the secret CLOUDFLARE_API_TOKEN[\s\S]*`npm ci` runs install scripts/,
  ],
}

describe('the workflows: no job that runs a pull request’s code holds a secret', () => {
  it('every workflow file passes the trust rules', () => {
    expect(files.length).toBeGreaterThanOrEqual(8)
    expect(files.flatMap((file) => trustProblems(file, read(file)))).toEqual([])
  })

  it.each(Object.entries(BAD))('fails on %s', (_, [yaml, expected]) => {
    expect(
      trustProblems('bad.yml', yaml)
        .map((p) => p.message)
        .join('\n'),
    ).toMatch(expected)
  })

  it('`npm run lint`’s workflow check exits 1 on a bad workflow and names the job', () => {
    const dir = scratchDir('bad-workflows')
    writeFileSync(join(dir, 'preview.yml'), BAD['a pull_request workflow holding a Cloudflare token']?.[0] ?? '')
    const run = spawnSync(process.execPath, ['scripts/lint-workflows.ts', dir], { encoding: 'utf8' })
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/preview\.yml \(job preview\): runs the pull request's code and names the secret/)
  }, 60_000)

  it('reads secrets wherever an expression names them, but not the run’s own GITHUB_TOKEN', () => {
    const expression = (text: string) => `$${'{{'} ${text} }}`
    expect(secretsIn(`${expression('secrets.A')} and ${expression("secrets['B']")}`)).toEqual(['A', 'B'])
    expect(secretsIn(expression('toJSON(secrets)'))).toEqual(['*'])
    expect(secretsIn(`${expression('secrets.GITHUB_TOKEN')} ${expression('github.token')}`)).toEqual([])
  })
})

describe('the workflows: what each job does', () => {
  const jobs = Object.fromEntries(
    files.flatMap((file) =>
      Object.entries<Record<string, unknown>>(workflow(file).jobs).map(([id, job]) => [`${file}:${id}`, job]),
    ),
  )
  type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> }
  const steps = (key: string) => (jobs[key]?.steps ?? []) as Step[]
  const runs = (key: string) => ((jobs[key]?.steps ?? []) as { run?: string }[]).map((s) => s.run ?? '').join('\n')

  it('every step that deploys calls a script under scripts/ci/, and no workflow reads wrangler’s stdout', () => {
    for (const file of files) {
      const text = read(file)
      expect(text, file).not.toMatch(/wrangler[^\n]*--json\s*>/)
      expect(text, file).not.toMatch(/\bjq\b/)
      expect(text, file).not.toMatch(/npx wrangler/)
    }
    expect(runs('preview-deploy.yml:deploy')).toMatch(
      /node scripts\/ci\/preview\.ts check[\s\S]*node scripts\/ci\/preview\.ts deploy[\s\S]*node scripts\/ci\/pr-comment\.ts/,
    )
    expect(runs('preview-delete.yml:delete')).toMatch(/node scripts\/ci\/preview\.ts delete/)
    expect(runs('deploy.yml:staging')).toMatch(/node scripts\/ci\/staging\.ts/)
    expect(runs('deploy.yml:production')).toMatch(/node scripts\/ci\/production\.ts/)
    expect(runs('rollback.yml:rollback')).toMatch(/node scripts\/ci\/rollback\.ts/)
    expect(runs('purge-previews.yml:purge')).toMatch(/node scripts\/ci\/purge-previews\.ts/)
    expect(runs('smoke.yml:smoke')).toMatch(/node scripts\/smoke\.ts --production/)
  })

  it('the tested build is kept under one name that a re-run replaces (no 409), and production deploys after staging', () => {
    const upload = steps('ci.yml:test').find((s) => s.uses?.startsWith('actions/upload-artifact@'))
    expect(upload?.with).toMatchObject({ name: 'build', overwrite: true })
    const preview = steps('preview.yml:build').find((s) => s.uses?.startsWith('actions/upload-artifact@'))
    expect(preview?.with).toMatchObject({ name: 'preview-build', overwrite: true })
    expect(jobs['deploy.yml:production']?.needs).toBe('staging')
    const afterCi = { workflows: ['CI'], types: ['completed'], branches: ['main'] }
    expect(workflow('deploy.yml').on.workflow_run).toEqual(afterCi)
    expect(workflow('preview-deploy.yml').on.workflow_run.workflows).toEqual([workflow('preview.yml').name])
  })

  it('the previews’ and staging’s databases are purged, and closed pull requests’ Previews deleted, on a schedule', () => {
    expect(workflow('purge-previews.yml').on.schedule).toEqual([{ cron: expect.any(String) }])
    expect(runs('purge-previews.yml:purge')).toMatch(
      /node scripts\/ci\/purge-previews\.ts[\s\S]*node scripts\/ci\/preview\.ts sweep/,
    )
    // Preview delete runs from main only: a stacked pull request's close would run its base branch's copy.
    expect(workflow('preview-delete.yml').on.pull_request_target.branches).toEqual(['main'])
  })

  it('a rollback shares no concurrency group with a deploy (a deploy queued after it would cancel it)', () => {
    const group = (key: string) => (jobs[key]?.concurrency as { group?: string } | undefined)?.group
    expect(group('rollback.yml:rollback')).toBeDefined()
    for (const key of Object.keys(jobs).filter((k) => k !== 'rollback.yml:rollback'))
      expect(group(key), key).not.toBe(group('rollback.yml:rollback'))
  })

  it('a pull request’s migrations, and a push to main’s, are checked to be append-only, with the history to compare', () => {
    const check = steps('ci.yml:migrations')
    expect(check.find((s) => s.uses?.startsWith('actions/checkout@'))?.with).toMatchObject({ 'fetch-depth': 0 })
    expect(runs('ci.yml:migrations')).toMatch(/node scripts\/ci\/migrations\.ts --base "\$BASE_SHA"/)
    expect(jobs['ci.yml:migrations']?.if).toBe(
      "github.event_name == 'pull_request' || (github.event_name == 'push' && github.ref == 'refs/heads/main')",
    )
    // Against the pull request's base, or main before the push.
    expect(check.at(-1)?.env?.BASE_SHA).toContain(
      "github.event_name == 'pull_request' && github.event.pull_request.base.sha || github.event.before",
    )
  })

  it('CODEOWNERS covers what reaches production', () => {
    const owned = readFileSync('.github/CODEOWNERS', 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'))
      .map((line) => line.split(/\s+/)[0])
    const production = ['/.github/', '/wrangler.toml', '/migrations/', '/package.json', '/package-lock.json']
    const config = ['/vite.config.ts', '/vitest.config.ts', '/vitest.drills.config.ts', '/playwright.config.ts']
    for (const path of [...production, ...config, '/app/', '/scripts/', '/tests/']) expect(owned).toContain(path)
    // A moved file or folder cannot leave its owners behind on a path that is gone.
    for (const path of owned) expect(existsSync(`.${path}`), path).toBe(true)
  })
})
