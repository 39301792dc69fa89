/**
 * docs/operations.md § 4 "Per-pull-request previews": a pull request's build (made without a
 * secret) is checked, its migrations run on the previews' database only, it is deployed as the
 * Preview pr-<number> behind Access and smoke-tested with the service token, its URL is commented
 * once and kept up to date; a build whose configuration points the previews at production's
 * database is refused; closing the pull request deletes the Preview; and the by-hand commands work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPOSITORY, sha, workflowRun } from './support/ci'
import { type Drill, startDrill, WORKER } from './support/drill'
import { type Copy, copyRepository, pinDatabaseIds, syncBuildConfig } from './support/project'

const ACCESS = { clientId: 'ci-client.access', clientSecret: 'ci-secret-5e7f' }
const PR = 7
let drill: Drill
let ids: { production: string; previews: string }
const prCopies: Copy[] = []

beforeAll(async () => {
  drill = await startDrill()
  ids = await drill.createDatabases()
  drill.cf.control.accessOnPreviews(ACCESS)
})
afterAll(async () => {
  for (const copy of prCopies) copy.remove()
  await drill?.dispose()
})

/** The pull request's checkout: main plus its own change (a migration), built. */
function pullRequestCheckout(change: { previewsDatabase?: string } = {}): Copy {
  const copy = copyRepository()
  prCopies.push(copy)
  pinDatabaseIds(copy, { production: ids.production, previews: change.previewsDatabase ?? ids.previews })
  copy.write(
    'migrations/0003_preview_probe.sql',
    '-- Migration number: 0003 \t A change under review.\nCREATE TABLE preview_probe (id INTEGER PRIMARY KEY);\n',
  )
  syncBuildConfig(copy)
  return copy
}

/** preview.yml's build job (its last step: the build handed over), then preview-deploy.yml's job. */
async function previewRun(runId: string, headSha: string, checkout: Copy) {
  const build = await drill.job({
    workflow: '.github/workflows/preview.yml',
    job: 'build',
    workspace: checkout.dir,
    fromStep: 'Hand the build over to the Preview workflow',
    github: {
      event_name: 'pull_request',
      ref: `refs/pull/${PR}/merge`,
      sha: headSha,
      repository: REPOSITORY,
      run_id: runId,
      event: { pull_request: { number: PR, head: { repo: { full_name: REPOSITORY } }, user: { login: 'author' } } },
    },
  })
  expect(build.result, build.log).toBe('success')
  return drill.job({
    workflow: '.github/workflows/preview-deploy.yml',
    job: 'deploy',
    github: workflowRun({ runId, headSha, event: 'pull_request', headBranch: 'feature/form', pullRequest: PR }),
    secrets: {
      CLOUDFLARE_PREVIEW_API_TOKEN: drill.cf.env.CLOUDFLARE_API_TOKEN as string,
      CLOUDFLARE_ACCOUNT_ID: drill.cf.accountId,
      CF_ACCESS_CLIENT_ID: ACCESS.clientId,
      CF_ACCESS_CLIENT_SECRET: ACCESS.clientSecret,
    },
  })
}

const tables = async (database: string) =>
  (await drill.cf.state.query<{ name: string }>(database, "SELECT name FROM sqlite_master WHERE type = 'table'")).map(
    (r) => r.name,
  )

describe("a pull request's preview (docs/operations.md § 4)", () => {
  it('deploys the checked build behind Access, migrates only the previews database, smoke-tests it, and comments its URL', async () => {
    drill.github.addHumanComment(PR, 'Looks good; checking the preview.')
    const run = await previewRun('201', sha('1'), pullRequestCheckout())
    expect(run.result, run.log).toBe('success')
    expect(run.checkouts).toEqual(['(the event’s default)'])

    const preview = drill.cf.state.previews(WORKER).find((p) => p.name === `pr-${PR}`)
    expect(preview?.url).toMatch(/^https:\/\/pr-7-akshara-labs-site\.stand-in\.workers\.dev/)
    expect(run.log).toContain(`smoke: ${new URL(preview?.url as string).origin} serves the home page`)
    expect(await tables('akshara-labs-enquiries-preview')).toContain('preview_probe')
    expect(await tables('akshara-labs-enquiries')).not.toContain('preview_probe')

    const bot = drill.github.comments(PR).filter((c) => c.user.type === 'Bot')
    expect(bot).toHaveLength(1)
    expect(bot[0]?.body).toContain(`**Preview:** ${preview?.url}`)
    expect(bot[0]?.body).toContain(`Updated for ${sha('1').slice(0, 7)}`)

    // Behind Access: without the service token the Preview answers with Access's login page.
    const anonymous = await drill.cf.fetch(`${preview?.url}`)
    expect(anonymous.status).toBe(302)
    expect(String(anonymous.headers.location)).toContain('cloudflareaccess.com')
  })

  it('keeps one comment up to date on the next push, and leaves people’s comments alone', async () => {
    const run = await previewRun('202', sha('2'), pullRequestCheckout())
    expect(run.result, run.log).toBe('success')
    const comments = drill.github.comments(PR)
    expect(comments.filter((c) => c.user.type === 'Bot')).toHaveLength(1)
    expect(comments.find((c) => c.user.type === 'Bot')?.body).toContain(`Updated for ${sha('2').slice(0, 7)}`)
    expect(comments.find((c) => c.user.type === 'User')?.body).toBe('Looks good; checking the preview.')
    expect(drill.github.unknown).toEqual([])
  })

  it("refuses a build whose previews database is production's: nothing is migrated or deployed", async () => {
    const deployments = drill.cf.state.previews(WORKER).flatMap((p) => p.deployments).length
    const run = await previewRun('203', sha('3'), pullRequestCheckout({ previewsDatabase: ids.production }))
    expect(run.result).toBe('failure')
    expect(run.log).toMatch(
      /cannot be deployed as a Preview:[\s\S]*previews\.d1_databases differs from the default branch's/,
    )
    expect(run.steps.find((s) => s.name.startsWith('Migrate'))?.outcome).toBe('skipped')
    expect(drill.cf.state.previews(WORKER).flatMap((p) => p.deployments)).toHaveLength(deployments)
    expect(await tables('akshara-labs-enquiries')).not.toContain('preview_probe')
  })

  it("refuses, on main too, a previews database that is production's (npm run check:config, the migration)", async () => {
    const original = drill.copy.read('wrangler.toml')
    pinDatabaseIds(drill.copy, { production: ids.production, previews: ids.production })
    try {
      const check = await drill.sh('npm run check:config')
      expect(check.code).toBe(1)
      expect(check.output).toContain(
        `[[previews.d1_databases]] ENQUIRIES database_id ${ids.production} is production's`,
      )
      const migrate = await drill.sh('npm run d1:migrate:previews')
      expect(migrate.code).toBe(1)
      expect(migrate.output).toContain("Refusing to migrate the previews' database")
    } finally {
      drill.copy.write('wrangler.toml', original)
    }
  })

  it('deletes the Preview when the pull request closes; a second close finds nothing and passes', async () => {
    const url = drill.cf.state.previews(WORKER).find((p) => p.name === `pr-${PR}`)?.url as string
    const closed = {
      event_name: 'pull_request_target',
      ref: 'refs/heads/main',
      sha: sha('f'),
      repository: REPOSITORY,
      run_id: '204',
      event: {
        action: 'closed',
        pull_request: { number: PR, head: { repo: { full_name: REPOSITORY } }, user: { login: 'author' } },
      },
    }
    const secrets = {
      CLOUDFLARE_PREVIEW_API_TOKEN: drill.cf.env.CLOUDFLARE_API_TOKEN as string,
      CLOUDFLARE_ACCOUNT_ID: drill.cf.accountId,
    }
    const run = await drill.job({
      workflow: '.github/workflows/preview-delete.yml',
      job: 'delete',
      github: closed,
      secrets,
    })
    expect(run.result, run.log).toBe('success')
    expect(drill.cf.state.previews(WORKER).map((p) => p.name)).not.toContain(`pr-${PR}`)
    const gone = await drill.cf.fetch(url, {
      headers: { 'CF-Access-Client-Id': ACCESS.clientId, 'CF-Access-Client-Secret': ACCESS.clientSecret },
    })
    expect(gone.status).toBe(404)
    expect(drill.github.comments(PR).find((c) => c.user.type === 'Bot')?.body).toContain(
      'deleted when the pull request closed',
    )

    const again = await drill.job({
      workflow: '.github/workflows/preview-delete.yml',
      job: 'delete',
      github: { ...closed, run_id: '205' },
      secrets,
    })
    expect(again.result, again.log).toBe('success')
    expect(again.log).toContain(`Preview pr-${PR} does not exist (never made, or already deleted): nothing to delete.`)
  })

  it('by hand: builds, migrates, makes a Preview named after the branch, and deletes it', async () => {
    const run = await drill.runbook('preview/by-hand', { 'preview name': 'my-branch' })
    expect(run.code, run.output).toBe(0)
    expect(run.output).toMatch(/https:\/\/my-branch-akshara-labs-site\.stand-in\.workers\.dev/)
    expect(drill.cf.state.previews(WORKER).map((p) => p.name)).not.toContain('my-branch')
    drill.cf.assertNoUnknownRequests()
  })
})
