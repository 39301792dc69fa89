import { NO_FIRST_PAGE, NO_SOURCE, type SourceReport, sourceReport } from '~/ledger/index.server'
import type { WorkerEnv } from '~/server/runtime.server'

/** In days. */
export const SOURCE_WINDOWS = [30, 90] as const

export interface SourcesData {
  reports: SourceReport[]
  none: { source: string; firstPage: string }
}

export async function sourcesData(env: WorkerEnv, now = new Date()): Promise<SourcesData> {
  const reports = await Promise.all(
    SOURCE_WINDOWS.map((days) =>
      sourceReport(env.ENQUIRIES, new Date(now.getTime() - days * 86_400_000).toISOString(), days),
    ),
  )
  return { reports, none: { source: NO_SOURCE, firstPage: NO_FIRST_PAGE } }
}
