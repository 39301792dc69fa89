import type { LeadSource } from './enquiry'

/**
 * A lead's source as `store.server.ts` reads it with the enquiry (migration 0007's columns).
 * Apart from `source.server.ts`, which writes it, so the two store modules never import each other.
 */
export const SOURCE_COLUMNS = 'source_page, first_page, referrer_host, utm_source, utm_medium, utm_campaign'

export interface SourceRow {
  source_page?: string | null
  first_page?: string | null
  referrer_host?: string | null
  utm_source?: string | null
  utm_medium?: string | null
  utm_campaign?: string | null
}

export function sourceOf(row: SourceRow): LeadSource {
  return {
    page: row.source_page ?? null,
    firstPage: row.first_page ?? null,
    referrerHost: row.referrer_host ?? null,
    utmSource: row.utm_source ?? null,
    utmMedium: row.utm_medium ?? null,
    utmCampaign: row.utm_campaign ?? null,
  }
}
