import { bounded, database } from '~/server/d1.server'
import type { EnquirySource } from './record'

/** An enquiry's source (migration 0007), written just after the enquiry; one that fails leaves it stored without. */

export async function recordSource(db: D1Database | undefined, id: string, source: EnquirySource): Promise<void> {
  await bounded(
    database(db)
      .prepare(
        `UPDATE enquiries SET source_page = ?2, first_page = ?3, referrer_host = ?4, utm_source = ?5, utm_medium = ?6, utm_campaign = ?7
         WHERE id = ?1`,
      )
      .bind(
        id,
        source.page,
        source.firstPage,
        source.referrerHost,
        source.utmSource,
        source.utmMedium,
        source.utmCampaign,
      )
      .run(),
  )
}

export interface SourceCount {
  label: string
  count: number
}

export interface SourceReport {
  days: number
  total: number
  /** The UTM source, else the referring host, else `NO_SOURCE`. */
  bySource: SourceCount[]
  byFirstPage: SourceCount[]
}

export const NO_SOURCE = 'Direct or not recorded'
export const NO_FIRST_PAGE = 'Not recorded'

/** Since `since`, largest first, at most `limit` each. */
export async function sourceReport(
  db: D1Database | undefined,
  since: string,
  days: number,
  limit = 20,
): Promise<SourceReport> {
  const d1 = database(db)
  const [bySource, byFirstPage, total] = await bounded(
    d1.batch([
      d1
        .prepare(
          `SELECT COALESCE(utm_source, referrer_host, ?2) AS label, COUNT(*) AS count FROM enquiries
           WHERE received_at >= ?1 GROUP BY label ORDER BY count DESC, label LIMIT ?3`,
        )
        .bind(since, NO_SOURCE, limit),
      d1
        .prepare(
          `SELECT COALESCE(first_page, ?2) AS label, COUNT(*) AS count FROM enquiries
           WHERE received_at >= ?1 GROUP BY label ORDER BY count DESC, label LIMIT ?3`,
        )
        .bind(since, NO_FIRST_PAGE, limit),
      d1.prepare('SELECT COUNT(*) AS count FROM enquiries WHERE received_at >= ?1').bind(since),
    ]),
  )
  return {
    days,
    total: ((total?.results ?? [])[0] as { count: number } | undefined)?.count ?? 0,
    bySource: (bySource?.results ?? []) as SourceCount[],
    byFirstPage: (byFirstPage?.results ?? []) as SourceCount[],
  }
}
