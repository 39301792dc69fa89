import {
  type AuditLine,
  attemptsOf,
  auditOf,
  type DeliveryAttempt,
  type EnquiryRecord,
  fillReplyBy,
  getEnquiry,
  isEnquiryId,
  markOpened,
  notesOf,
  recordOpen,
  seeOperator,
  storedTriage,
  type TriageNote,
  type TriageView,
  triageView,
} from '~/ledger/index.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { knownOperators, type Operator } from './operator.server'
import { type EndpointAttempts, webhookHistory } from './webhooks.server'

export interface TriageDetail extends TriageView {
  me: string
  notes: TriageNote[]
  operators: string[]
}

/** A new enquiry becomes open once its reply-by is written, so the target holds. */
export async function openTriage(env: WorkerEnv, id: string, operator: Operator): Promise<TriageDetail | null> {
  await Promise.all([fillReplyBy(env), seeOperator(env.ENQUIRIES, operator.email, new Date().toISOString())])
  await markOpened(env.ENQUIRIES, id)
  const stored = await storedTriage(env.ENQUIRIES, id)
  if (!stored) return null
  const [notes, operators] = await Promise.all([notesOf(env.ENQUIRIES, id), knownOperators(env, operator.email)])
  return { ...triageView(stored, new Date().toISOString()), me: operator.email, notes, operators }
}

export interface EnquiryPage {
  record: EnquiryRecord
  attempts: DeliveryAttempt[]
  /** Each webhook endpoint's event and attempts. */
  webhooks: EndpointAttempts[]
  triage: TriageDetail | null
  audit: AuditLine[]
}

/** Every read of an enquiry is in its audit trail, or the page is not shown. */
export async function enquiryPage(env: WorkerEnv, id: string, operator: Operator): Promise<EnquiryPage | null> {
  if (!isEnquiryId(id)) return null
  const record = await getEnquiry(env.ENQUIRIES, id)
  if (!record) return null
  const attempts = await attemptsOf(env.ENQUIRIES, id)
  const triage = await openTriage(env, id, operator)
  await recordOpen(env.ENQUIRIES, operator.email, record.id)
  const webhooks = await webhookHistory(env, record.id)
  return { record, attempts, webhooks, triage, audit: await auditOf(env.ENQUIRIES, record.id) }
}
