import {
  type EnquiryFilter,
  type EnquiryRecord,
  type EnquiryStatus,
  fillReplyBy,
  type HeldSummary,
  heldSummary,
  isEnquiryStatus,
  listEnquiries,
  type ReplyBySetup,
  replyBySetup,
  seeOperator,
  type TriageCounts,
  type TriageView,
  triageCounts,
  triageView,
} from '~/ledger/index.server'
import type { WorkerEnv } from '~/server/runtime.server'
import type { Operator } from './operator.server'
import { deliverySetup, setupGaps } from './setup.server'
import { parseTriageQuery, type TriageQuery, triageFilter } from './triage'

/** The desk page (`/admin`). */

export const PAGE_SIZE = 25
const SEARCH_MAX = 200

/** Anything malformed is dropped. */
export interface EnquiryListQuery extends TriageQuery {
  status?: EnquiryStatus
  q?: string
  page: number
}

export function parseEnquiryListQuery(input: Record<string, unknown>): EnquiryListQuery {
  const status = isEnquiryStatus(input.status) ? input.status : undefined
  const rawQ = input.q === undefined || input.q === null ? '' : String(input.q)
  const q = rawQ.trim().slice(0, SEARCH_MAX) || undefined
  const page = Number(input.page)
  return {
    status,
    q,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    ...parseTriageQuery(input),
  }
}

/** Here and in the CSV export. */
export function filterOf(query: EnquiryListQuery, operator: Operator): EnquiryFilter {
  return {
    status: query.status,
    search: query.q,
    triage: triageFilter(query, operator.email, new Date().toISOString()),
  }
}

export interface TriageListData {
  me: string
  counts: TriageCounts
  setup: ReplyBySetup
  rows: Record<string, TriageView>
}

export interface EnquiryListData {
  query: EnquiryListQuery
  records: EnquiryRecord[]
  total: number
  pageSize: number
  /** What the set-up lacks, in words: the whole set-up is `/admin/setup`. */
  setupGaps: string[]
  /** In the held view, for the bulk erasure. */
  held: HeldSummary | null
  triage: TriageListData
}

export async function enquiryListData(
  env: WorkerEnv,
  query: EnquiryListQuery,
  operator: Operator,
): Promise<EnquiryListData> {
  await fillReplyBy(env)
  const { records, total } = await listEnquiries(env.ENQUIRIES, filterOf(query, operator), {
    limit: PAGE_SIZE,
    offset: (query.page - 1) * PAGE_SIZE,
  })
  const held = query.status === 'held' ? await heldSummary(env.ENQUIRIES) : null
  const now = new Date().toISOString()
  const [counts] = await Promise.all([
    triageCounts(env.ENQUIRIES, operator.email, now),
    seeOperator(env.ENQUIRIES, operator.email, now),
  ])
  const rows = Object.fromEntries(
    records.flatMap((record) => (record.triage ? [[record.id, triageView(record.triage, now)]] : [])),
  )
  const triage = { me: operator.email, counts, setup: replyBySetup(env), rows }
  return { query, records, total, pageSize: PAGE_SIZE, setupGaps: setupGaps(deliverySetup(env)), held, triage }
}
