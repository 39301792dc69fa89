// docs/operations/previews.md: a pull request's preview, what is refused, and its deletion.
import { readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JobResult } from './support/actions'
import { CI, establishProduction, scheduledJob } from './support/ci'
import { ACCESS, type Drill, PREVIEWS_WORKER, startDrill } from './support/drill'
import { DATABASES } from './support/names'
import { type Copy, pinDatabaseIds, placeBuild } from './support/project'

/** A stacked pull request: it merges into another pull request's branch, not main. */
const PR = { number: 7, head: 'feature/form-copy', base: 'feature/form' }
// The pull request's migration is numbered after main's last, as append-only migrations must be.
const NEXT = String(
  Math.max(...readdirSync('migrations').map((name) => Number(/^(\d{4})_.*\.sql$/.exec(name)?.[1] ?? 0))) + 1,
).padStart(4, '0')
const PROBE = `migrations/${NEXT}_preview_probe.sql`
let drill: Drill
let ids: { production: string; previews: string }

beforeAll(async () => {
  drill = await startDrill()
  await establishProduction(drill, { key: 'form-key-5c2e' })
  const databases = await drill.cf.state.databases()
  const id = (name: string) => databases.find((d) => d.name === name)?.uuid as string
  ids = { production: id(DATABASES.production), previews: id(DATABASES.previews) }
  await drill.cf.control.protectWorker(PREVIEWS_WORKER, ACCESS)
})
afterAll(async () => {
  await drill?.dispose()
})

/** The pull request's tree: main plus its own change (a migration, or what `change` does), built. */
function pullRequestTree(change: { previewsDatabase?: string; edit?: (copy: Copy) => void } = {}): {
  tree: string
  sha: string
} {
  // The pull request's commit, in the drill's repository: main's tree with the change.
  drill.copy.write(
    PROBE,
    `-- Migration number: ${NEXT} \t A change under review.\nCREATE TABLE preview_probe (id INTEGER PRIMARY KEY);\n`,
  )
  if (change.previewsDatabase)
    pinDatabaseIds(drill.copy, { production: ids.production, previews: change.previewsDatabase })
  change.edit?.(drill.copy)
  const sha = drill.copy.commitOnBranch(PR.head, 'The pull request’s change')
  const tree = drill.copy.checkout(sha)
  placeBuild(tree)
  return { tree, sha }
}

/** preview.yml's build job (its last step: the build handed over), then what its completion triggers. */
async function previewRun(pr: { tree: string; sha: string }): Promise<JobResult | undefined> {
  const runId = drill.actions.newRunId()
  const build = await drill.job({
    workflow: '.github/workflows/preview.yml',
    job: 'build',
    workspace: pr.tree,
    fromStep: 'Hand the build over to the Preview workflow',
    github: {
      event_name: 'pull_request',
      ref: `refs/pull/${PR.number}/merge`,
      sha: pr.sha,
      run_id: runId,
      event: {
        pull_request: {
          number: PR.number,
          head: { repo: { full_name: drill.github.repository } },
          user: { login: 'author' },
        },
      },
    },
  })
  expect(build.result, build.log).toBe('success')
  const runs = await drill.actions.trigger({
    name: 'workflow_run',
    workflow: 'Preview build',
    runId,
    event: 'pull_request',
    headBranch: PR.head,
    headSha: pr.sha,
    pullRequest: PR.number,
    actor: 'author',
  })
  return runs.find((r) => r.workflow === '.github/workflows/preview-deploy.yml')?.jobs.deploy
}

const tables = async (database: string) =>
  (await drill.cf.state.query<{ name: string }>(database, "SELECT name FROM sqlite_master WHERE type = 'table'")).map(
    (r) => r.name,
  )
const previewOf = async (name: string) => (await drill.cf.state.previews(PREVIEWS_WORKER)).find((p) => p.name === name)

describe("a pull request's preview (docs/operations/previews.md)", () => {
  it('deploys the checked build to the previews Worker behind Access, migrates only the previews database, smoke-tests it, and comments its URL', async () => {
    await drill.github.addHumanComment(PR.number, 'Looks good; checking the preview.')
    const calls = (await drill.cf.state.apiRequests()).length
    const run = await previewRun(pullRequestTree())
    expect(run?.result, run?.log).toBe('success')
    expect(run?.checkouts).toEqual([drill.copy.head()])

    const preview = await previewOf(`pr-${PR.number}`)
    expect(preview?.url).toBe(`https://pr-7-${PREVIEWS_WORKER}.${drill.cf.subdomain}.workers.dev`)
    // Smoke-tested at the new deployment's own URL, which serves exactly that deployment.
    const deployment = preview?.deployments.at(-1)
    expect(deployment?.url).toBe(
      `https://${deployment?.id.slice(0, 8)}-${PREVIEWS_WORKER}.${drill.cf.subdomain}.workers.dev`,
    )
    expect(run?.log).toContain(
      `smoke: ${deployment?.url} (deployment ${deployment?.id}'s own URL) serves the home page and /api/health is ok`,
    )
    expect(await tables(DATABASES.previews)).toContain('preview_probe')
    expect(await tables(DATABASES.staging)).not.toContain('preview_probe')
    expect(await tables(DATABASES.production)).not.toContain('preview_probe')
    // The job held the previews' token only.
    expect(new Set((await drill.cf.state.apiRequests()).slice(calls).map((r) => r.token))).toEqual(new Set(['preview']))

    const bot = (await drill.github.comments(PR.number)).filter((c) => c.user.type === 'Bot')
    expect(bot).toHaveLength(1)
    expect(bot[0]?.body).toContain(`**Preview:** ${preview?.url}`)
    expect(bot[0]?.body).toContain(`Updated for ${drill.copy.revParse(PR.head).slice(0, 7)}`)

    // Behind Access: without the service token the Preview answers with Access's login page.
    const anonymous = await drill.cf.fetch(`${preview?.url}`)
    expect(anonymous.status).toBe(302)
    expect(String(anonymous.headers.location)).toContain('cloudflareaccess.com')
  })

  it('keeps one comment up to date on the next push, and leaves people’s comments alone', async () => {
    const run = await previewRun(pullRequestTree())
    expect(run?.result, run?.log).toBe('success')
    const comments = await drill.github.comments(PR.number)
    expect(comments.filter((c) => c.user.type === 'Bot')).toHaveLength(1)
    expect(comments.find((c) => c.user.type === 'Bot')?.body).toContain(
      `Updated for ${drill.copy.revParse(PR.head).slice(0, 7)}`,
    )
    expect(comments.find((c) => c.user.type === 'User')?.body).toBe('Looks good; checking the preview.')
    expect(await drill.github.unknown()).toEqual([])
  })

  it('refuses a pull request that changes a migration main has applied: CI fails, and the preview job migrates and deploys nothing', async () => {
    const deployments = (await drill.cf.state.previews(PREVIEWS_WORKER)).flatMap((p) => p.deployments).length
    const pr = pullRequestTree({
      edit: (copy) =>
        copy.edit('migrations/0008_notices.sql', (sql) => `${sql}\nALTER TABLE notices ADD COLUMN draft TEXT;\n`),
    })
    const ci = await drill.job({
      workflow: CI,
      job: 'migrations',
      github: {
        event_name: 'pull_request',
        ref: `refs/pull/${PR.number}/merge`,
        sha: pr.sha,
        run_id: drill.actions.newRunId(),
        event: { pull_request: { number: PR.number, base: { sha: drill.copy.head() } } },
      },
    })
    expect(ci.result).toBe('failure')
    expect(ci.log).toContain('0008_notices.sql is changed, but main has already applied it under this name')

    const run = await previewRun(pr)
    expect(run?.result).toBe('failure')
    expect(run?.log).toMatch(/cannot be deployed as a Preview:[\s\S]*0008_notices\.sql is changed/)
    expect(run?.steps.find((s) => s.name.startsWith('Migrate'))?.outcome).toBe('skipped')
    expect((await drill.cf.state.previews(PREVIEWS_WORKER)).flatMap((p) => p.deployments)).toHaveLength(deployments)

    // A pull request that only adds a migration after main's passes CI's check.
    const fine = await drill.job({
      workflow: CI,
      job: 'migrations',
      github: {
        event_name: 'pull_request',
        ref: `refs/pull/${PR.number}/merge`,
        sha: pullRequestTree().sha,
        run_id: drill.actions.newRunId(),
        event: { pull_request: { number: PR.number, base: { sha: drill.copy.head() } } },
      },
    })
    expect(fine.result, fine.log).toBe('success')
  })

  it("refuses a build whose previews database is production's: nothing is migrated or deployed", async () => {
    const deployments = (await drill.cf.state.previews(PREVIEWS_WORKER)).flatMap((p) => p.deployments).length
    const run = await previewRun(pullRequestTree({ previewsDatabase: ids.production }))
    expect(run?.result).toBe('failure')
    expect(run?.log).toMatch(
      /cannot be deployed as a Preview:[\s\S]*previews\.d1_databases differs from the default branch's/,
    )
    expect(run?.steps.find((s) => s.name.startsWith('Migrate'))?.outcome).toBe('skipped')
    expect((await drill.cf.state.previews(PREVIEWS_WORKER)).flatMap((p) => p.deployments)).toHaveLength(deployments)
    expect(await tables(DATABASES.production)).not.toContain('preview_probe')
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

  it("refuses production's token in a preview job: Cloudflare lets it reach neither the previews Worker nor their database", async () => {
    // preview-deploy.yml as a mistaken edit would have it: production's environment and token.
    drill.copy.edit('.github/workflows/preview-deploy.yml', (yaml) =>
      yaml
        .replace('environment:\n      name: preview', 'environment:\n      name: production')
        .replace('secrets.CLOUDFLARE_PREVIEW_API_TOKEN', 'secrets.CLOUDFLARE_API_TOKEN'),
    )
    drill.copy.commit('The preview job, handed production’s token')
    try {
      const deployments = (await drill.cf.state.previews(PREVIEWS_WORKER)).flatMap((p) => p.deployments).length
      const calls = (await drill.cf.state.apiRequests()).length
      const run = await previewRun(pullRequestTree())
      expect(run?.result).toBe('failure')
      expect(run?.log).toContain('Authentication error')
      const refused = (await drill.cf.state.apiRequests()).slice(calls)
      expect(refused.filter((r) => r.status === 403)).toContainEqual(
        expect.objectContaining({
          token: 'production',
          error: `token "production" may not use the database ${DATABASES.previews}`,
        }),
      )
      expect((await drill.cf.state.previews(PREVIEWS_WORKER)).flatMap((p) => p.deployments)).toHaveLength(deployments)
    } finally {
      drill.copy.checkoutFile('HEAD~1', '.github/workflows/preview-deploy.yml')
      drill.copy.commit('The preview job, back on the previews’ token')
    }
  })

  it("deletes a stacked pull request's Preview in the daily sweep (Preview delete runs for pull requests into main only), and a pull request into main's when it closes", async () => {
    const url = (await previewOf(`pr-${PR.number}`))?.url as string
    const close = (pr: { number: number; base: string; head: string }) =>
      drill.actions.trigger({
        name: 'pull_request_target',
        action: 'closed',
        number: pr.number,
        base: pr.base,
        head: pr.head,
        headSha: drill.copy.revParse(PR.head),
      })
    await drill.github.setPullRequest(PR.number, 'closed')
    expect(await close(PR)).toEqual([])
    expect((await drill.cf.state.previews(PREVIEWS_WORKER)).map((p) => p.name)).toContain(`pr-${PR.number}`)

    const purge = await scheduledJob(drill, '.github/workflows/purge-previews.yml', 'purge')
    expect(purge.result, purge.log).toBe('success')
    expect(purge.log).toContain(`Preview pr-${PR.number} deleted.`)
    expect(purge.summary).toContain('Previews of closed pull requests deleted: 1')
    expect((await drill.cf.state.previews(PREVIEWS_WORKER)).map((p) => p.name)).not.toContain(`pr-${PR.number}`)
    const gone = await drill.cf.fetch(url, {
      headers: { 'CF-Access-Client-Id': ACCESS.clientId, 'CF-Access-Client-Secret': ACCESS.clientSecret },
    })
    expect(gone.status).toBe(404)

    // A pull request into main: Preview delete runs when it closes; one never made counts as deleted.
    const [run] = await close({ number: 8, base: 'main', head: 'feature/other' })
    expect(run?.jobs.delete?.result, run?.jobs.delete?.log).toBe('success')
    expect(run?.jobs.delete?.log).toContain(
      'Preview pr-8 does not exist (never made, or already deleted): nothing to delete.',
    )
  })

  it('fails a Preview that no Access application covers: a request without the service token must get Access’s login', async () => {
    await drill.cf.control.protectWorker(PREVIEWS_WORKER, null)
    try {
      const run = await previewRun(pullRequestTree())
      expect(run?.result).toBe('failure')
      const url = (await previewOf(`pr-${PR.number}`))?.deployments.at(-1)?.url
      expect(run?.log).toContain(
        `${url} answered 200 to a request without the Access service token, not Access's login: no Access application covers it`,
      )
    } finally {
      await drill.cf.control.protectWorker(PREVIEWS_WORKER, ACCESS)
    }
  })

  it('by hand: builds, migrates, makes a Preview named after the branch in the previews Worker, and deletes it', async () => {
    // The service token exported, as the runbook says for a Preview behind Access.
    const run = await drill.runbook(
      'preview/by-hand',
      { 'preview name': 'my-branch' },
      { env: { CF_ACCESS_CLIENT_ID: ACCESS.clientId, CF_ACCESS_CLIENT_SECRET: ACCESS.clientSecret } },
    )
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain(`https://my-branch-${PREVIEWS_WORKER}.${drill.cf.subdomain}.workers.dev`)
    expect(run.output).toMatch(/\(deployment [0-9a-f-]+'s own URL\) serves the home page/)
    expect((await drill.cf.state.previews(PREVIEWS_WORKER)).map((p) => p.name)).not.toContain('my-branch')
    // CI's names are refused, before anything is deployed.
    const calls = (await drill.cf.state.apiRequests()).length
    for (const name of ['staging', 'pr-7']) {
      const refused = await drill.sh(`npm run preview:branch -- --name ${name}`)
      expect(refused.code, refused.output).not.toBe(0)
      expect(refused.output).toContain(`the name ${name} is`)
    }
    // And a branch whose new migration drops a column, against main's.
    drill.copy.write('migrations/0099_drop_owner.sql', 'ALTER TABLE enquiries DROP COLUMN owner;\n')
    const dropped = await drill.sh('npm run preview:branch -- --name my-branch')
    expect(dropped.code, dropped.output).not.toBe(0)
    expect(dropped.output).toContain('0099_drop_owner.sql drops a column')
    expect((await drill.cf.state.apiRequests()).length).toBe(calls)
    await drill.cf.assertNoUnknownRequests()
  })
})
