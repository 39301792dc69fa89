/**
 * The stand-in Cloudflare account (tests/support/cloudflare) driven by the pinned wrangler 4.151, on
 * a real `npm run build` of a copy of this repository: the commands the runbook uses, and the URLs
 * they hand out serving the uploaded build. The drills of docs/operations.md build on this.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { site } from '../../app/site'
import { type Cloudflare, startCloudflare } from '../support/cloudflare/index.ts'
import { copyProject, type ProjectCopy, setDatabaseIds } from '../support/cloudflare/project.ts'
import { runCommand, runWrangler, type WranglerRun } from '../support/cloudflare/wrangler.ts'
import { type FormService, startFormService } from '../support/form-service'

const WORKER = 'akshara-labs-site'
const PRODUCTION_DB = 'akshara-labs-enquiries'
const PREVIEW_DB = 'akshara-labs-enquiries-preview'
const FORM_KEY = 'stand-in-form-key-1'

let cf: Cloudflare
let project: ProjectCopy
let formService: FormService

const timings: string[] = []

async function wrangler(args: string[], options: { input?: string } = {}): Promise<WranglerRun> {
  const run = await runWrangler(cf, args, { cwd: project.dir, ...options })
  timings.push(`${String(run.durationMs).padStart(6)} ms  wrangler ${args.slice(0, 3).join(' ')}`)
  return run
}

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

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** Sends an enquiry through the edge to a site's /api/contact (the form's no-script path); returns its address. */
async function sendEnquiry(origin: string, label: string): Promise<string> {
  const email = `${label}-${Date.now()}@example.com`
  const answer = await cf.fetch(`${origin}/api/contact`, {
    method: 'POST',
    headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      name: 'Lakshmi Prasanna',
      email,
      company: 'Godavari Agro Exports',
      subject: 'devops',
      message: `Sent through the stand-in edge (${label}).`,
    }).toString(),
  })
  expect(answer.status).toBe(200)
  return email
}

/** The access key the form service received with the enquiry from `email` (waits for the delivery). */
async function deliveredKey(email: string): Promise<string | undefined> {
  const delivered = await until(() =>
    formService.received.find((r) => (r.json as { email?: string } | null)?.email === email),
  )
  return (delivered.json as { access_key?: string }).access_key
}

beforeAll(async () => {
  const started = Date.now()
  ;[cf, formService] = await Promise.all([
    startCloudflare({ zones: [{ name: 'aksharalabs.in', dnsRecords: ['aksharalabs.in'] }] }),
    startFormService(0),
  ])
  // The served Worker's calls to the form service reach the loopback stand-in instead.
  cf.control.setOutbound((request) => {
    const url = new URL(request.url)
    if (url.origin === new URL(site.url).origin || url.hostname !== 'api.web3forms.com') {
      return new Response('unexpected outbound request', { status: 599 })
    }
    return fetch(formService.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      duplex: 'half',
    } as RequestInit)
  })
  project = copyProject()
  // First deploy, as docs/operations.md has it: create both databases, paste their ids, build.
  const created = await Promise.all([wrangler(['d1', 'create', PRODUCTION_DB]), wrangler(['d1', 'create', PREVIEW_DB])])
  for (const run of created) succeeded(run)
  const id = (name: string) => cf.state.databases().find((d) => d.name === name)?.uuid
  project.writeWranglerToml(
    setDatabaseIds(project.readWranglerToml(), { production: id(PRODUCTION_DB), previews: id(PREVIEW_DB) }),
  )
  await project.build()
  writeFileSync(join(project.dir, '.secrets.env'), `CONTACT_FORM_ACCESS_KEY=${FORM_KEY}\n`)
  timings.push(`${String(Date.now() - started).padStart(6)} ms  stand-in started, databases created, project built`)
}, 300_000)

afterAll(async () => {
  console.log(`wrangler runs (${timings.length}):\n${timings.join('\n')}`)
  await Promise.all([cf?.stop(), formService?.close()])
  project?.remove()
})

describe('the pinned wrangler against the stand-in Cloudflare account', () => {
  test('whoami, d1 create, list and info: the account and its databases; the id pasted into wrangler.toml is theirs', async () => {
    // Read-only commands, run side by side.
    const [whoami, listRun, infoRun] = await Promise.all([
      wrangler(['whoami']),
      wrangler(['d1', 'list', '--json']),
      wrangler(['d1', 'info', PRODUCTION_DB, '--json']),
    ])
    expect(succeeded(whoami).stdout).toContain(cf.accountId)
    const list = jsonFrom<{ name: string; uuid: string }[]>(succeeded(listRun).stdout)
    expect(list.map((d) => d.name).sort()).toEqual([PRODUCTION_DB, PREVIEW_DB])
    const info = jsonFrom<{ uuid: string; name: string }>(succeeded(infoRun).stdout)
    expect(project.readWranglerToml()).toContain(`database_id = "${info.uuid}"`)
    cf.assertNoUnknownRequests()
  })

  test('a first deploy without the required secret is refused, and nothing is created', async () => {
    const run = await wrangler(['deploy'])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('The following required secrets have not been set: CONTACT_FORM_ACCESS_KEY')
    expect(cf.state.workers()).toEqual([])
    cf.assertNoUnknownRequests()
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
    const list = succeeded(await wrangler(['d1', 'migrations', 'list', 'ENQUIRIES', '--remote']))
    expect(list.stdout).toContain('No migrations to apply')
    cf.assertNoUnknownRequests()
  })

  test('deploy uploads the build; workers.dev serves it, with its vars, secret, schedule; npm run smoke passes', async () => {
    const run = succeeded(await wrangler(['deploy', '--secrets-file', '.secrets.env', '--message', 'First deploy']))
    const entry = run.entry<{ version_id: string; targets: string[] }>('deploy')
    const url = cf.workersDevUrl(WORKER)
    expect(entry?.targets).toEqual([url, 'schedule: * * * * *'])

    const worker = cf.state.worker(WORKER)
    expect(worker.deployment?.versions).toEqual([{ id: entry?.version_id, percentage: 100 }])
    expect(worker.latestVersion?.id).toBe(entry?.version_id)
    expect(worker.latestVersion?.message).toBe('First deploy')
    expect(worker.latestVersion?.secretNames).toEqual(['CONTACT_FORM_ACCESS_KEY'])
    expect(worker.latestVersion?.vars).toMatchObject({
      CONTACT_DELIVERY: 'form-service',
      ENQUIRY_RETENTION_DAYS: '730',
    })
    expect(worker.latestVersion?.bindings).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'ENQUIRIES', type: 'd1', id: expect.any(String) })]),
    )
    expect(worker.schedules).toEqual(['* * * * *'])
    expect(worker.url).toBe(url)

    const health = await cf.fetch(`${url}/api/health`)
    expect(health.status).toBe(200)
    expect(health.json()).toEqual({ ok: true })
    const home = await cf.fetch(`${url}/`)
    expect(home.status).toBe(200)
    expect(home.text).toContain(site.name)
    // A static asset, from the upload session, with the build's _headers applied.
    const stylesheet = home.text.match(/href="(\/assets\/[^"]+\.css)"/)?.[1]
    expect(stylesheet).toBeDefined()
    const css = await cf.fetch(`${url}${stylesheet}`)
    expect(css.status).toBe(200)
    expect(css.headers['content-type']).toContain('text/css')
    expect(cf.state.edgeRequests().at(-1)?.servedBy).toEqual({ kind: 'version', id: entry?.version_id, worker: WORKER })

    // The project's own smoke test, unchanged: Node 24's fetch through HTTPS_PROXY and the CA.
    const smoke = await runCommand('npm', ['run', 'smoke', '--', '--url', url, '--attempts', '1'], cf, {
      cwd: project.dir,
    })
    expect(smoke.stderr).not.toContain('smoke:')
    expect(smoke.stdout).toContain(`smoke: ${url} serves the home page and /api/health is ok`)
    expect(smoke.code).toBe(0)
    cf.assertNoUnknownRequests()
  })

  test('an enquiry sent through the served Worker lands in the database d1 execute --remote reads, and is delivered with the key', async () => {
    const email = await sendEnquiry(cf.workersDevUrl(WORKER), 'first')
    const run = succeeded(
      await wrangler([
        'd1',
        'execute',
        'ENQUIRIES',
        '--remote',
        '--json',
        '--command',
        'SELECT email, status FROM enquiries',
      ]),
    )
    const [result] = jsonFrom<{ results: { email: string }[] }[]>(run.stdout)
    expect(result?.results.map((r) => r.email)).toContain(email)
    expect(await deliveredKey(email)).toBe(FORM_KEY)
    cf.assertNoUnknownRequests()
  })

  test('versions secret put patches the latest uploaded version, not the one serving', async () => {
    const served = cf.state.worker(WORKER).deployment?.versions[0]?.id as string
    // The second build differs from the first by a var, so a copy of either can be told apart.
    const upload = succeeded(
      await wrangler(['versions', 'upload', '--message', 'Second build', '--var', 'BUILD:second']),
    )
    const uploaded = upload.entry<{ version_id: string; preview_url: string }>('version-upload')
    expect(uploaded?.preview_url).toBe(`https://${uploaded?.version_id.slice(0, 8)}-${WORKER}.stand-in.workers.dev`)

    succeeded(
      await wrangler(['versions', 'secret', 'put', 'CONTACT_FORM_ACCESS_KEY', '--message', 'Rotate form key'], {
        input: 'stand-in-form-key-2\n',
      }),
    )
    const worker = cf.state.worker(WORKER)
    const latest = worker.latestVersion
    expect(latest?.message).toBe('Rotate form key')
    expect(latest?.id).not.toBe(uploaded?.version_id)
    // The new key went onto a copy of the latest upload (the second build), not onto what serves.
    expect(latest?.vars.BUILD).toBe('second')
    expect(cf.state.secretValue(WORKER, latest?.id as string, 'CONTACT_FORM_ACCESS_KEY')).toBe('stand-in-form-key-2')
    expect(cf.state.secretValue(WORKER, served, 'CONTACT_FORM_ACCESS_KEY')).toBe(FORM_KEY)
    expect(worker.deployment?.versions).toEqual([{ id: served, percentage: 100 }])
    expect(cf.state.servingAt(cf.workersDevUrl(WORKER)).ids).toEqual([{ id: served, percentage: 100 }])

    // The version's own Preview URL serves that upload.
    expect((await cf.fetch(`${uploaded?.preview_url}/api/health`)).status).toBe(200)
    expect(cf.state.edgeRequests().at(-1)?.servedBy).toMatchObject({ id: uploaded?.version_id })
    cf.assertNoUnknownRequests()
  })

  test('versions deploy moves the traffic; deployments status --json and versions view say so', async () => {
    const target = cf.state.worker(WORKER).latestVersion?.id as string
    const run = succeeded(await wrangler(['versions', 'deploy', `${target}@100`, '--message', 'Ship it', '--yes']))
    expect(run.entry('version-deploy')).toBeDefined()
    const [statusRun, viewRun] = await Promise.all([
      wrangler(['deployments', 'status', '--json']),
      wrangler(['versions', 'view', target]),
    ])
    const status = jsonFrom<{ versions: { version_id: string; percentage: number }[] }>(succeeded(statusRun).stdout)
    expect(status.versions).toEqual([{ version_id: target, percentage: 100 }])
    const view = succeeded(viewRun)
    expect(view.stdout).toContain('Rotate form key')
    expect(view.stdout).toContain('CONTACT_FORM_ACCESS_KEY')
    // The version serving now carries the new key: the Worker delivers with it.
    expect(await deliveredKey(await sendEnquiry(cf.workersDevUrl(WORKER), 'after-deploy'))).toBe('stand-in-form-key-2')
    expect(cf.state.edgeRequests().at(-1)?.servedBy).toMatchObject({ id: target })
    cf.assertNoUnknownRequests()
  })

  test('rollback brings the previous version (and its secret) back; plain secret put then refuses', async () => {
    const worker = cf.state.worker(WORKER)
    const first = worker.versions[0]?.id as string
    const rolledBackFrom = worker.deployment?.versions[0]?.id
    succeeded(await wrangler(['rollback', '--message', 'Back to the first deploy', '--yes']))
    const after = cf.state.worker(WORKER)
    expect(after.deployment).toMatchObject({ triggeredBy: 'rollback', versions: [{ id: first, percentage: 100 }] })
    expect(after.latestVersion?.id).toBe(rolledBackFrom)
    // The first version's secret came back with it.
    expect(await deliveredKey(await sendEnquiry(cf.workersDevUrl(WORKER), 'after-rollback'))).toBe(FORM_KEY)
    expect(cf.state.edgeRequests().at(-1)?.servedBy).toMatchObject({ id: first })

    const put = await wrangler(['secret', 'put', 'CONTACT_FORM_ACCESS_KEY'], { input: 'stand-in-form-key-3\n' })
    expect(put.code).not.toBe(0)
    expect(put.stderr).toContain("the latest version of your Worker isn't currently deployed")
    expect(put.stderr).toContain('wrangler versions secret put')
    expect(cf.state.worker(WORKER).versions).toHaveLength(after.versions.length)
    cf.assertNoUnknownRequests()
  })

  test('the next deploy makes a new version and serves it, keeping the latest version’s secrets; its Cron Trigger runs on it', async () => {
    const before = cf.state.worker(WORKER)
    const latestKey = cf.state.secretValue(WORKER, before.latestVersion?.id as string, 'CONTACT_FORM_ACCESS_KEY')
    const run = succeeded(await wrangler(['deploy', '--message', 'Next merge']))
    const versionId = run.entry<{ version_id: string }>('deploy')?.version_id as string
    const after = cf.state.worker(WORKER)
    expect(after.versions).toHaveLength(before.versions.length + 1)
    expect(after.deployment?.versions).toEqual([{ id: versionId, percentage: 100 }])
    expect(cf.state.secretValue(WORKER, versionId, 'CONTACT_FORM_ACCESS_KEY')).toBe(latestKey)
    const [secretList, scheduled] = await Promise.all([wrangler(['secret', 'list']), cf.control.runScheduled(WORKER)])
    expect(jsonFrom<{ name: string }[]>(succeeded(secretList).stdout).map((s) => s.name)).toEqual([
      'CONTACT_FORM_ACCESS_KEY',
    ])
    expect(scheduled).toEqual({ versionId, outcome: 'ok' })
    cf.assertNoUnknownRequests()
  })

  test('a Preview serves the build with its own vars and database, none of production’s secrets, and is gone once deleted', async () => {
    writeFileSync(join(project.dir, '.preview-secrets.env'), 'CONTACT_FORM_ACCESS_KEY=preview-only-key\n')
    const run = succeeded(
      await wrangler([
        'preview',
        '--name',
        'pr-7',
        '--json',
        '--var',
        'MARKER:pr-7',
        '--secrets-file',
        '.preview-secrets.env',
      ]),
    )
    const entry = run.entry<{ preview_urls: string[]; deployment_id: string }>('preview')
    const previewUrl = `https://pr-7-${WORKER}.stand-in.workers.dev`
    expect(entry?.preview_urls).toEqual([previewUrl])
    const [preview] = cf.state.previews(WORKER)
    const deployment = preview?.deployments[0]
    expect(deployment?.vars).toMatchObject({ CONTACT_DELIVERY: 'none', ENQUIRY_RETENTION_DAYS: '30', MARKER: 'pr-7' })
    // Its only secret is the one given to it: nothing comes from production.
    expect(deployment?.secretNames).toEqual(['CONTACT_FORM_ACCESS_KEY'])
    const previewDb = cf.state.databases().find((d) => d.name === PREVIEW_DB)?.uuid
    expect(deployment?.bindings).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'ENQUIRIES', type: 'd1', id: previewDb })]),
    )
    const home = await cf.fetch(`${previewUrl}/`)
    expect(home.status).toBe(200)
    expect(home.text).toContain(site.name)
    expect(cf.state.edgeRequests().at(-1)?.servedBy).toEqual({
      kind: 'preview',
      id: entry?.deployment_id,
      worker: WORKER,
    })

    // The Preview writes its own database: give it the schema (d1 execute --file), send an enquiry.
    const schema = readdirSync(join(project.dir, 'migrations'))
      .sort()
      .map((file) => readFileSync(join(project.dir, 'migrations', file), 'utf8'))
      .join('\n')
    writeFileSync(join(project.dir, '.preview-schema.sql'), schema)
    succeeded(await wrangler(['d1', 'execute', PREVIEW_DB, '--remote', '--file', '.preview-schema.sql', '--yes']))
    const email = await sendEnquiry(previewUrl, 'preview')
    const inPreview = await cf.state.query<{ email: string; status: string }>(
      PREVIEW_DB,
      'SELECT email, status FROM enquiries',
    )
    expect(inPreview).toEqual([{ email, status: 'pending' }])
    expect(await cf.state.query(PRODUCTION_DB, 'SELECT id FROM enquiries WHERE email = ?', email)).toEqual([])
    succeeded(await wrangler(['d1', 'execute', PREVIEW_DB, '--remote', '--command', 'DELETE FROM enquiries']))
    expect(await cf.state.query(PREVIEW_DB, 'SELECT id FROM enquiries')).toEqual([])

    succeeded(await wrangler(['preview', 'delete', '--name', 'pr-7', '--skip-confirmation']))
    expect(cf.state.previews(WORKER)).toEqual([])
    expect((await cf.fetch(`${previewUrl}/`)).status).toBe(404)
    cf.assertNoUnknownRequests()
  })

  test('a version made to fail answers 500 everywhere it serves', async () => {
    const second = cf.state.worker(WORKER).versions.find((v) => v.message === 'Second build')
    cf.control.breakVersions({ message: 'Second build' })
    try {
      expect((await cf.fetch(`${second?.previewUrl}/api/health`)).status).toBe(500)
      expect((await cf.fetch(`${cf.workersDevUrl(WORKER)}/api/health`)).status).toBe(200)
    } finally {
      cf.control.clearBrokenVersions()
    }
  })

  test('Access on workers.dev and Preview URLs: a login redirect without the service token, the site with it', async () => {
    const token = { clientId: 'ci.access', clientSecret: 'ci-secret' }
    cf.control.accessOnPreviews(token)
    try {
      const url = `${cf.workersDevUrl(WORKER)}/api/health`
      const refused = await cf.fetch(url)
      expect(refused.status).toBe(302)
      expect(String(refused.headers.location)).toMatch(
        /^https:\/\/stand-in\.cloudflareaccess\.com\/cdn-cgi\/access\/login\//,
      )
      const admitted = await cf.fetch(url, {
        headers: { 'CF-Access-Client-Id': token.clientId, 'CF-Access-Client-Secret': token.clientSecret },
      })
      expect(admitted.status).toBe(200)
    } finally {
      cf.control.accessOnPreviews(null)
    }
  })

  test('a custom domain answers only once its certificate is issued; the existing DNS record is replaced', async () => {
    cf.control.setCertificateDelay(60_000)
    // The runbook's custom-domain step: routes with custom_domain, applied to the built config.
    const config = join(project.dir, 'dist/server/wrangler.json')
    const withDomain = join(project.dir, 'dist/server/wrangler.domain.json')
    const built = JSON.parse(readFileSync(config, 'utf8'))
    writeFileSync(
      withDomain,
      JSON.stringify({ ...built, routes: [{ pattern: 'aksharalabs.in', custom_domain: true }] }),
    )
    const run = succeeded(await wrangler(['triggers', 'deploy', '-c', withDomain]))
    expect(run.stdout).toContain('aksharalabs.in (custom domain)')
    expect(cf.state.customDomains()).toEqual([
      {
        hostname: 'aksharalabs.in',
        worker: WORKER,
        zone: 'aksharalabs.in',
        certificateReady: false,
        answers: false,
        replacedDnsRecord: true,
      },
    ])
    await expect(cf.fetch('https://aksharalabs.in/api/health')).rejects.toThrow()
    cf.control.issueCertificates()
    const health = await cf.fetch('https://aksharalabs.in/api/health')
    expect(health.status).toBe(200)
    expect(cf.state.customDomains()[0]?.answers).toBe(true)
    cf.assertNoUnknownRequests()
  })

  test('an API call the stand-in does not serve fails, and is reported with its method and path', async () => {
    const path = `/accounts/${cf.accountId}/workers/scripts/${WORKER}/tails`
    const response = await fetch(`${cf.apiUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${cf.env.CLOUDFLARE_API_TOKEN}` },
    })
    expect(response.status).toBe(404)
    expect(((await response.json()) as { errors: { code: number }[] }).errors[0]?.code).toBe(7003)
    expect(cf.unknownRequests()).toEqual([
      expect.objectContaining({ kind: 'api', method: 'POST', path: `/client/v4${path}` }),
    ])
    expect(() => cf.assertNoUnknownRequests()).toThrow(`api POST /client/v4${path}`)
  })
})
