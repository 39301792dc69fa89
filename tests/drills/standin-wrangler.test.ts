// The stand-in Cloudflare driven by the pinned wrangler, on the build `npm run build` made.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { site } from '../../app/site'
import { type Cloudflare, connectCloudflare } from '../support/cloudflare/index.ts'
import { runCommand, runWrangler, type WranglerRun } from '../support/cloudflare/wrangler.ts'
import { type FormService, startFormService } from '../support/form-service'
import { TOKENS } from './support/drill'
import { DATABASES } from './support/names'
import { type Copy, copyRepository, pinDatabaseIds, syncBuildConfig } from './support/project'

const WORKER = 'akshara-labs-site'
const PRODUCTION_DB = DATABASES.production
const PREVIEW_DB = DATABASES.previews
const FORM_KEY = 'stand-in-form-key-1'

let cf: Cloudflare
let project: Copy
let formService: FormService

const wrangler = (args: string[], options: { input?: string } = {}): Promise<WranglerRun> =>
  runWrangler(cf, args, { cwd: project.dir, input: options.input })

/** Fails with wrangler's own words when a command that should work did not. */
function succeeded(run: WranglerRun): WranglerRun {
  if (run.code !== 0) throw new Error(`wrangler exited ${run.code}\n${run.stdout}\n${run.stderr}`)
  return run
}

/** The JSON document wrangler printed (after any human lines it prints first). */
function jsonFrom<T>(stdout: string): T {
  const start = stdout.search(/^[[{]/m)
  return JSON.parse(stdout.slice(start)) as T
}

/** Sends an enquiry through the edge to a site's /api/contact (the form's no-script path); returns its address. */
async function sendEnquiry(origin: string, label: string): Promise<string> {
  const email = `${label}-${Date.now()}@example.com`
  const answer = await cf.fetch(`${origin}/api/contact`, {
    method: 'POST',
    headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      name: 'Lakshmi',
      email,
      subject: 'devops',
      message: `Through the edge (${label}).`,
    }).toString(),
  })
  expect(answer.status).toBe(200)
  return email
}

/** The access key the form service received with the enquiry from `email` (waits for the delivery). */
async function deliveredKey(email: string): Promise<string | undefined> {
  const delivered = () => formService.received.find((r) => (r.json as { email?: string } | null)?.email === email)
  await expect.poll(delivered, { timeout: 15_000 }).toBeTruthy()
  return (delivered()?.json as { access_key?: string } | undefined)?.access_key
}

const health = async (url: string) => (await cf.fetch(`${url}/api/health`)).json<{ ok: boolean; version: string }>()

beforeAll(async () => {
  ;[cf, formService] = await Promise.all([
    connectCloudflare(inject('standin'), { tokens: TOKENS, propagationMs: 0, rolloutMs: 0 }),
    startFormService(0, '127.0.0.1', { plan: 'paid' }),
  ])
  // The served Worker's calls to the form service reach the loopback stand-in instead.
  await cf.control.setOutbound((request) => {
    const url = new URL(request.url)
    if (url.hostname !== 'api.web3forms.com') return new Response('unexpected outbound request', { status: 599 })
    const init = { method: request.method, headers: request.headers, body: request.body, duplex: 'half' }
    return fetch(formService.url, init as RequestInit)
  })
  project = copyRepository()
  // The build's redirect, as `npm run build` leaves it: wrangler then uses dist/server/wrangler.json.
  mkdirSync(join(project.dir, '.wrangler/deploy'), { recursive: true })
  writeFileSync(
    join(project.dir, '.wrangler/deploy/config.json'),
    JSON.stringify({ configPath: '../../dist/server/wrangler.json' }),
  )
  // First deploy, as docs/operations/first-deploy.md has it: create the databases, paste their ids.
  const created = await Promise.all([wrangler(['d1', 'create', PRODUCTION_DB]), wrangler(['d1', 'create', PREVIEW_DB])])
  for (const run of created) succeeded(run)
  const databases = await cf.state.databases()
  const id = (name: string) => databases.find((d) => d.name === name)?.uuid as string
  pinDatabaseIds(project, { production: id(PRODUCTION_DB), previews: id(PREVIEW_DB) })
  syncBuildConfig(project)
  writeFileSync(join(project.dir, '.secrets.env'), `CONTACT_FORM_ACCESS_KEY=${FORM_KEY}\n`)
}, 300_000)

afterAll(async () => {
  await Promise.all([cf?.stop(), formService?.close()])
  project?.remove()
})

describe('the pinned wrangler against the stand-in Cloudflare account', () => {
  test('whoami, d1 list and info: the account and its databases; the id pasted into wrangler.toml is theirs', async () => {
    const [whoami, listRun, infoRun] = await Promise.all([
      wrangler(['whoami']),
      wrangler(['d1', 'list', '--json']),
      wrangler(['d1', 'info', PRODUCTION_DB, '--json']),
    ])
    expect(succeeded(whoami).stdout).toContain(cf.accountId)
    const list = jsonFrom<{ name: string; uuid: string }[]>(succeeded(listRun).stdout)
    expect(list.map((d) => d.name).sort()).toEqual([PRODUCTION_DB, PREVIEW_DB])
    const info = jsonFrom<{ uuid: string; name: string }>(succeeded(infoRun).stdout)
    expect(project.read('wrangler.toml')).toContain(`database_id = "${info.uuid}"`)
    await cf.assertNoUnknownRequests()
  })

  test('a first deploy without the required secret is refused, and nothing is created', async () => {
    const run = await wrangler(['deploy'])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('The following required secrets have not been set: CONTACT_FORM_ACCESS_KEY')
    expect(await cf.state.workers()).toEqual([])
    await cf.assertNoUnknownRequests()
  })

  test('d1 migrations apply --remote runs the migrations on the production database', async () => {
    succeeded(await wrangler(['d1', 'migrations', 'apply', 'ENQUIRIES', '--remote']))
    const tables = await cf.state.query<{ name: string }>(
      PRODUCTION_DB,
      "SELECT name FROM sqlite_master WHERE type = 'table'",
    )
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['enquiries', 'enquiry_attempts', 'd1_migrations']),
    )
    await cf.assertNoUnknownRequests()
  })

  test('deploy uploads the build; workers.dev serves it, with its vars, secret, schedule and version; npm run smoke passes', async () => {
    const run = succeeded(await wrangler(['deploy', '--secrets-file', '.secrets.env', '--message', 'First deploy']))
    const entry = run.entry<{ version_id: string; targets: string[] }>('deploy')
    const url = cf.workersDevUrl(WORKER)
    expect(entry?.targets).toEqual([url, 'schedule: * * * * *'])

    const worker = await cf.state.worker(WORKER)
    expect(worker.deployment?.versions).toEqual([{ id: entry?.version_id, percentage: 100 }])
    expect(worker.latestVersion?.id).toBe(entry?.version_id)
    expect(worker.latestVersion?.message).toBe('First deploy')
    expect(worker.latestVersion?.secretNames).toEqual(['CONTACT_FORM_ACCESS_KEY'])
    expect(worker.latestVersion?.vars).toMatchObject({
      CONTACT_DELIVERY: 'form-service',
      ENQUIRY_RETENTION_DAYS: '730',
    })
    expect(worker.latestVersion?.bindings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'ENQUIRIES', type: 'd1', id: expect.any(String) }),
        expect.objectContaining({ name: 'CF_VERSION_METADATA', type: 'version_metadata' }),
      ]),
    )
    expect(worker.schedules).toEqual(['* * * * *'])
    expect(worker.url).toBe(url)
    // preview_urls = false: no version has a URL of its own.
    expect(worker.previewsEnabled).toBe(false)

    // /api/health names the version that answered (the version_metadata binding).
    expect(await health(url)).toEqual({ ok: true, version: entry?.version_id })
    const home = await cf.fetch(`${url}/`)
    expect(home.status).toBe(200)
    expect(home.text).toContain(site.name)
    // A static asset, from the upload session, with the build's _headers applied.
    const stylesheet = home.text.match(/href="(\/assets\/[^"]+\.css)"/)?.[1]
    expect(stylesheet).toBeDefined()
    const css = await cf.fetch(`${url}${stylesheet}`)
    expect(css.status).toBe(200)
    expect(css.headers['content-type']).toContain('text/css')
    expect((await cf.state.edgeRequests()).at(-1)?.servedBy).toEqual({
      kind: 'version',
      id: entry?.version_id,
      worker: WORKER,
    })

    // The project's own smoke test, unchanged: Node 24's fetch through HTTPS_PROXY and the CA.
    const smoke = await runCommand(
      'npm',
      ['run', 'smoke', '--', '--url', url, '--attempts', '1', '--version', entry?.version_id as string],
      cf,
      { cwd: project.dir, env: { SMOKE_INTERVAL_SECONDS: '0.25' } },
    )
    expect(smoke.stderr).not.toContain('smoke:')
    expect(smoke.stdout).toContain(`smoke: ${url} serves the home page and /api/health is ok`)
    expect(smoke.code).toBe(0)
    await cf.assertNoUnknownRequests()
  })

  test('an enquiry sent through the served Worker lands in the database d1 execute --remote reads, and is delivered with the key', async () => {
    const email = await sendEnquiry(cf.workersDevUrl(WORKER), 'first')
    const query = ['--command', 'SELECT email, status FROM enquiries']
    const run = succeeded(await wrangler(['d1', 'execute', 'ENQUIRIES', '--remote', '--json', ...query]))
    const [result] = jsonFrom<{ results: { email: string }[] }[]>(run.stdout)
    expect(result?.results.map((r) => r.email)).toContain(email)
    expect(await deliveredKey(email)).toBe(FORM_KEY)
    await cf.assertNoUnknownRequests()
  })

  test('versions secret put patches the latest uploaded version, not the one serving', async () => {
    const served = (await cf.state.worker(WORKER)).deployment?.versions[0]?.id as string
    // The second build differs from the first by a var, so a copy of either can be told apart.
    const upload = succeeded(
      await wrangler(['versions', 'upload', '--message', 'Second build', '--var', 'BUILD:second']),
    )
    const uploaded = upload.entry<{ version_id: string; preview_url?: string }>('version-upload')
    // No URL of its own (preview_urls = false).
    expect(uploaded?.preview_url).toBeUndefined()

    succeeded(
      await wrangler(['versions', 'secret', 'put', 'CONTACT_FORM_ACCESS_KEY', '--message', 'Rotate form key'], {
        input: 'stand-in-form-key-2\n',
      }),
    )
    const worker = await cf.state.worker(WORKER)
    const latest = worker.latestVersion
    expect(latest?.message).toBe('Rotate form key')
    expect(latest?.id).not.toBe(uploaded?.version_id)
    // The new key went onto a copy of the latest upload (the second build), not onto what serves.
    expect(latest?.vars.BUILD).toBe('second')
    expect(await cf.state.secretValue(WORKER, latest?.id as string, 'CONTACT_FORM_ACCESS_KEY')).toBe(
      'stand-in-form-key-2',
    )
    expect(await cf.state.secretValue(WORKER, served, 'CONTACT_FORM_ACCESS_KEY')).toBe(FORM_KEY)
    expect(worker.deployment?.versions).toEqual([{ id: served, percentage: 100 }])
    expect((await cf.state.servingAt(cf.workersDevUrl(WORKER))).ids).toEqual([{ id: served, percentage: 100 }])
    await cf.assertNoUnknownRequests()
  })

  test('versions deploy moves the traffic once the deployment has reached every location; deployments status --json and versions view say so at once', async () => {
    const url = cf.workersDevUrl(WORKER)
    const before = (await cf.state.worker(WORKER)).deployment?.versions[0]?.id as string
    const target = (await cf.state.worker(WORKER)).latestVersion?.id as string
    await cf.control.setPropagation(20_000)
    try {
      const run = succeeded(await wrangler(['versions', 'deploy', `${target}@100`, '--message', 'Ship it', '--yes']))
      expect(run.entry('version-deploy')).toBeDefined()
      expect((await cf.state.servingAt(url)).ids).toEqual([{ id: before, percentage: 100 }])
      expect((await health(url)).version).toBe(before)
      // The API says the new deployment at once; the old version answers until it has propagated.
      const [statusRun, viewRun] = await Promise.all([
        wrangler(['deployments', 'status', '--json']),
        wrangler(['versions', 'view', target]),
      ])
      const status = jsonFrom<{ versions: { version_id: string; percentage: number }[] }>(succeeded(statusRun).stdout)
      expect(status.versions).toEqual([{ version_id: target, percentage: 100 }])
      const view = succeeded(viewRun)
      expect(view.stdout).toContain('Rotate form key')
      expect(view.stdout).toContain('CONTACT_FORM_ACCESS_KEY')
      await expect.poll(async () => (await health(url)).version, { timeout: 40_000 }).toBe(target)
    } finally {
      await cf.control.setPropagation(0)
    }
    // The version serving now carries the new key: the Worker delivers with it.
    expect(await deliveredKey(await sendEnquiry(url, 'after-deploy'))).toBe('stand-in-form-key-2')
    expect((await cf.state.edgeRequests()).at(-1)?.servedBy).toMatchObject({ id: target })
    await cf.assertNoUnknownRequests()
  })

  test('rollback brings the previous version (and its secret) back; the Cron Trigger runs on what serves', async () => {
    const worker = await cf.state.worker(WORKER)
    const first = worker.versions[0]?.id as string
    const rolledBackFrom = worker.deployment?.versions[0]?.id
    succeeded(await wrangler(['rollback', '--message', 'Back to the first deploy', '--yes']))
    const after = await cf.state.worker(WORKER)
    expect(after.deployment).toMatchObject({ triggeredBy: 'rollback', versions: [{ id: first, percentage: 100 }] })
    expect(after.latestVersion?.id).toBe(rolledBackFrom)
    // The first version's secret came back with it.
    expect(await deliveredKey(await sendEnquiry(cf.workersDevUrl(WORKER), 'after-rollback'))).toBe(FORM_KEY)
    expect((await cf.state.edgeRequests()).at(-1)?.servedBy).toMatchObject({ id: first })
    const [secretList, scheduled] = await Promise.all([wrangler(['secret', 'list']), cf.control.runScheduled(WORKER)])
    expect(jsonFrom<{ name: string }[]>(succeeded(secretList).stdout).map((s) => s.name)).toEqual([
      'CONTACT_FORM_ACCESS_KEY',
    ])
    expect(scheduled).toEqual({ versionId: first, outcome: 'ok' })
    await cf.assertNoUnknownRequests()
  })

  test('d1 execute --file --remote imports SQL into the database the served Worker uses', async () => {
    const schema = readdirSync(join(project.dir, 'migrations'))
      .sort()
      .map((file) => readFileSync(join(project.dir, 'migrations', file), 'utf8'))
      .join('\n')
    writeFileSync(join(project.dir, '.preview-schema.sql'), schema)
    succeeded(await wrangler(['d1', 'execute', PREVIEW_DB, '--remote', '--file', '.preview-schema.sql', '--yes']))
    const tables = await cf.state.query<{ name: string }>(
      PREVIEW_DB,
      "SELECT name FROM sqlite_master WHERE type = 'table'",
    )
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['enquiries', 'enquiry_attempts']))
    await cf.assertNoUnknownRequests()
  })
})
