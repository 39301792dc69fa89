/** Custom domains: the changeset, attaching, and one domain's record. */
import { randomUUID } from 'node:crypto'
import { ApiError, parseJson } from '../http.ts'
import type { Account, Zone } from '../model.ts'
import { domainJson } from './json.ts'
import { A, route, worker } from './routes.ts'

interface Origin {
  hostname: string
  zone_id?: string
  zone_name?: string
  enabled?: boolean
  previews_enabled?: boolean
}

function zoneFor(account: Account, { hostname, zone_id: id, zone_name: name }: Origin): Zone {
  const zone = account.options.zones.find(
    (z) =>
      (id && z.id === id) ||
      (name && z.name === name) ||
      (!id && !name && (hostname === z.name || hostname.endsWith(`.${z.name}`))),
  )
  if (!zone) throw new ApiError(400, 100117, `Could not find a zone on this account for the hostname ${hostname}`)
  return zone
}

route('POST', `${A}/workers/scripts/:name/domains/changeset`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const origins = parseJson<Origin[]>(body)
  const added: unknown[] = []
  const updated: unknown[] = []
  const conflicting: unknown[] = []
  for (const origin of origins) {
    const zone = zoneFor(ctx.account, origin)
    const existing = ctx.account.domains.find((d) => d.hostname === origin.hostname)
    const entry = {
      hostname: origin.hostname,
      zone_id: zone.id,
      zone_name: zone.name,
      previews_enabled: origin.previews_enabled,
    }
    if (existing) {
      updated.push({ ...entry, id: existing.id, modified: existing.service !== target.name })
    } else {
      added.push(entry)
      if (zone.dnsRecords.includes(origin.hostname)) conflicting.push(entry)
    }
  }
  const removed = ctx.account.domains
    .filter((d) => d.service === target.name && !origins.some((o) => o.hostname === d.hostname))
    .map(domainJson)
  return { added, removed, updated, conflicting }
})

route('PUT', `${A}/workers/scripts/:name/domains/records`, ({ ctx, params, body }) => {
  const target = worker(ctx, params[0])
  const request = parseJson<{
    override_scope?: boolean
    override_existing_origin?: boolean
    override_existing_dns_record?: boolean
    origins: Origin[]
  }>(body)
  const account = ctx.account
  for (const origin of request.origins) {
    const zone = zoneFor(account, origin)
    const existing = account.domains.find((d) => d.hostname === origin.hostname)
    if (existing && existing.service !== target.name && !request.override_existing_origin) {
      throw new ApiError(409, 100116, `${origin.hostname} is already a custom domain of ${existing.service}`)
    }
    if (!existing && zone.dnsRecords.includes(origin.hostname) && !request.override_existing_dns_record) {
      throw new ApiError(409, 100117, `Hostname ${origin.hostname} already has externally managed DNS records`)
    }
  }
  // override_scope: the script's domains become exactly the given ones.
  if (request.override_scope) {
    for (const d of account.domains.filter(
      (d) => d.service === target.name && !request.origins.some((o) => o.hostname === d.hostname),
    )) {
      account.domains.splice(account.domains.indexOf(d), 1)
    }
  }
  for (const origin of request.origins) {
    const zone = zoneFor(account, origin)
    const existing = account.domains.find((d) => d.hostname === origin.hostname)
    if (existing) {
      existing.service = target.name
      existing.enabled = origin.enabled ?? true
      existing.previewsEnabled = origin.previews_enabled ?? false
      continue
    }
    const replaced = zone.dnsRecords.includes(origin.hostname)
    if (replaced) zone.dnsRecords.splice(zone.dnsRecords.indexOf(origin.hostname), 1)
    account.domains.push({
      id: randomUUID().replaceAll('-', ''),
      hostname: origin.hostname,
      zoneId: zone.id,
      zoneName: zone.name,
      service: target.name,
      environment: 'production',
      enabled: origin.enabled ?? true,
      previewsEnabled: origin.previews_enabled ?? false,
      createdAt: new Date().toISOString(),
      certificateReadyAt: Date.now() + account.options.certificateDelayMs,
      replacedDnsRecord: replaced,
    })
  }
  return account.domains.filter((d) => d.service === target.name).map(domainJson)
})
