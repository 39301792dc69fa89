// docs/operations/custom-domain.md: the domain attached at the first merge, made the address at the second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JobResult } from './support/actions'
import { ciCompleted, ciRun, deployOf, establishProduction, serving } from './support/ci'
import { type Drill, startDrill, WORKER } from './support/drill'
import { setSiteUrl, syncBuildConfig } from './support/project'

const DOMAIN = 'aksharalabs.in'
let drill: Drill

beforeAll(async () => {
  drill = await startDrill({
    cloudflare: {
      zones: [{ name: DOMAIN, dnsRecords: [DOMAIN] }],
      // Long enough that nothing but waiting for it would see the domain answer.
      certificateDelayMs: 60 * 60_000,
    },
  })
  await establishProduction(drill, { key: 'form-key-9e21' })
})

/** A merge to main, deployed to production (staging is drilled in push-to-main.test.ts). */
async function merge(message: string): Promise<JobResult> {
  const sha = drill.copy.commit(message)
  const ci = await ciRun(drill, { sha, dispatch: { reason: message, actor: 'ops-lead' } })
  expect(ci.result.result, ci.result.log).toBe('success')
  return deployOf(await ciCompleted(drill, { id: ci.id, sha, event: 'workflow_dispatch' })).jobs.production as JobResult
}
afterAll(async () => {
  await drill?.dispose()
})

const health = (origin: string) => drill.cf.fetch(`${origin}/api/health`).then((r) => r.status)

describe('the custom domain, in two merges (docs/operations/custom-domain.md)', () => {
  it('merge 1 attaches the domain and replaces its old DNS record, while workers.dev keeps serving and passes the smoke test', async () => {
    // wrangler.toml's ready block, uncommented where it stands; workers_dev and `url` unchanged.
    drill.copy.edit('wrangler.toml', (toml) =>
      toml.replace(/^# routes = \[\n((?:#\s+\{.*\n)+)# \]\n/m, (block) => block.replace(/^# ?/gm, '')),
    )
    syncBuildConfig(drill.copy)
    const run = await merge('Merge 1: the domain attached')
    expect(run.result, run.log).toBe('success')
    expect(run.log).toContain(`smoke: ${drill.workersDev} serves the home page`)

    const domains = await drill.cf.state.customDomains()
    expect(domains.map((d) => d.hostname).sort()).toEqual([DOMAIN, `www.${DOMAIN}`])
    expect(domains.find((d) => d.hostname === DOMAIN)).toMatchObject({
      replacedDnsRecord: true,
      certificateReady: false,
    })
    expect(await health(drill.workersDev)).toBe(200)
    await expect(drill.cf.fetch(`https://${DOMAIN}/`)).rejects.toThrow()
  })

  it('waits until the domain answers: the smoke test on it passes once the certificate is issued', async () => {
    const waiting = drill.runbook('custom-domain/wait', { domain: DOMAIN })
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    expect((await drill.cf.state.customDomains()).every((d) => !d.certificateReady)).toBe(true)
    await drill.cf.control.issueCertificates()
    const run = await waiting
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain(`smoke: https://${DOMAIN} serves the home page and /api/health is ok`)
  })

  it('merge 2 makes the domain the address: smoke-tested there, workers.dev off, www redirected, still no version URLs', async () => {
    const before = await serving(drill)
    setSiteUrl(drill.copy, `https://${DOMAIN}`)
    drill.copy.edit('wrangler.toml', (toml) => toml.replace(/^workers_dev = true$/m, 'workers_dev = false'))
    syncBuildConfig(drill.copy)
    const run = await merge('Merge 2: the domain is the address')
    expect(run.result, run.log).toBe('success')
    expect(run.log).toContain(`smoke: https://${DOMAIN} serves the home page`)
    expect(await serving(drill)).not.toBe(before)

    expect(await health(`https://${DOMAIN}`)).toBe(200)
    expect(await health(drill.workersDev)).toBe(404)
    const www = await drill.cf.fetch(`https://www.${DOMAIN}/contact?x=1`)
    expect(www.status).toBe(308)
    expect(www.headers.location).toBe(`https://${DOMAIN}/contact?x=1`)
    // Production's versions have no URL of their own, with the domain as without.
    expect(await drill.cf.state.worker(WORKER)).toMatchObject({ workersDev: false, previewsEnabled: false })
    await drill.cf.assertNoUnknownRequests()
  })
})
