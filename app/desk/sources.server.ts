import { NO_FIRST_PAGE, NO_SOURCE, type SourceReport, sourceReport } from '~/ledger/index.server'
import type { WorkerEnv } from '~/server/runtime.server'

/** The windows `/admin/sources` counts over, in days. */
export const SOURCE_WINDOWS = [30, 90] as const

export interface SourcesData {
  reports: SourceReport[]
  /** The labels of enquiries without a source or a first page. */
  none: { source: string; firstPage: string }
}

/** Enquiries by source and by first page for each window, counted up to `now`. */
export async function sourcesData(env: WorkerEnv, now = new Date()): Promise<SourcesData> {
  const reports = await Promise.all(
    SOURCE_WINDOWS.map((days) =>
      sourceReport(env.ENQUIRIES, new Date(now.getTime() - days * 86_400_000).toISOString(), days),
    ),
  )
  return { reports, none: { source: NO_SOURCE, firstPage: NO_FIRST_PAGE } }
}
