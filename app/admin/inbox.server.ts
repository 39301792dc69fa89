import {
  attemptDelivery,
  attemptsOf,
  claimEnquiry,
  countHeld,
  type DeliveryAttempt,
  type EnquiryFilter,
  type EnquiryRecord,
  type EnquiryStatus,
  enquiryPages,
  eraseEnquiry,
  eraseHeld,
  getEnquiry,
  HELD_PER_HOUR,
  type HeldSelection,
  type HeldSummary,
  healthReport,
  heldRetentionDays,
  heldSummary,
  isEnquiryStatus,
  LEASE_MS,
  listEnquiries,
  liveLeaseUntil,
  markHandled,
  parseHeldSelection,
  RELEASE_FROM,
  RETRY_FROM,
  requeueEnquiry,
  retentionDays,
} from '~/contact/index.server'
import { type NoticeSetupLine, noticesSetup, noticesSetupLines } from '~/notices/setup'
import { readFormBody } from '~/server/body-limit.server'
import { errorCause, log, requestIdFor } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { site } from '~/site'
import { type InboxFence, inboxFence, verifyAccess } from './access.server'
import { recordAudit } from './audit.server'
import { enquiriesCsvStream } from './csv'
import { ADMIN_ACTIONS, type AdminAction, HELD_ACTIONS, type Notice } from './notices'
import { enquiryPath, heldErasePath } from './paths'
import { erasePersonAction } from './person.server'
import { isTriageActionName, parseTriageQuery, TRIAGE_ACTIONS, type TriageQuery, triageFilter } from './triage'
import {
  fillReplyBy,
  handleTriageAction,
  openTriage,
  type TriageDetail,
  type TriageListData,
  triageList,
} from './triage.server'

/** Headers on every /admin answer: never stored by anything, never indexed. */
export const ADMIN_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
}

export const PAGE_SIZE = 25
/** The most rows one CSV export holds (streamed, so the Worker's memory holds one page of them). */
export const EXPORT_LIMIT = 50_000
/** Rows read from D1 at a time for the export: at most about 7 MB of the largest enquiries. */
export const EXPORT_PAGE_SIZE = 250
const SEARCH_MAX = 200

/**
 * Who is acting: the e-mail (their own data: shown to them, stored as who handled an enquiry) and
 * Access's ID for them (the token's `sub`), the only identity a log line carries.
 */
export interface Operator {
  email: string
  id: string
}

/** The operator when the request carries a valid Access token, else null (and one log line). */
export async function operatorFor(request: Request, env: WorkerEnv): Promise<Operator | null> {
  const access = await verifyAccess(request, env)
  if (access.ok) return { email: access.email, id: access.id }
  log('warn', {
    event: 'admin_denied',
    requestId: requestIdFor(request),
    reason: access.reason,
    path: new URL(request.url).pathname.slice(0, 100),
  })
  return null
}

/** The 403 answer: the same for every refusal, with nothing from the inbox in it. */
export function forbidden(): Response {
  return new Response(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Not allowed</title></head><body><main><h1>Not allowed</h1><p>This page is for the people who run this website, signed in through Cloudflare Access.</p></main></body></html>',
    { status: 403, headers: { 'Content-Type': 'text/html; charset=utf-8', ...ADMIN_HEADERS } },
  )
}

/** Filter and page from a query string (or the router's search object); anything malformed is dropped. */
export interface InboxQuery extends TriageQuery {
  status?: EnquiryStatus
  q?: string
  page: number
}

export function parseInboxQuery(input: Record<string, unknown>): InboxQuery {
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

function filterOf(query: InboxQuery, operator: Operator): EnquiryFilter {
  return {
    status: query.status,
    search: query.q,
    triage: triageFilter(query, operator.email, new Date().toISOString()),
  }
}

/** What an operator needs to know about delivery: never a secret's value. */
export interface DeliverySetup {
  /** The delivery in effect (`none` when none is, or it lacks what it needs). */
  delivery: string
  requested: string
  configured: boolean
  /** Names of missing secrets or bindings. */
  missing: string[]
  rateLimiter: boolean
  store: boolean
  retentionDays: number
  /** How long a held enquiry nobody released is kept. */
  heldRetentionDays: number
  /** The most held enquiries kept from one hour (more are refused, never acknowledged). */
  heldPerHour: number
  /** Turnstile on the contact form: on (both keys set), off, or half set (the missing name). */
  turnstile: 'on' | 'off' | { missing: string[] }
  /** Who may open the inbox besides passing Access. */
  fence: InboxFence
  /** The digest, the alerts and the receipt: on, or why not (docs/notices.md). */
  notices: NoticeSetupLine[]
}

export function deliverySetup(env: WorkerEnv): DeliverySetup {
  const report = healthReport(env)
  return {
    delivery: report.delivery,
    requested: report.requested,
    configured: report.configured,
    missing: report.missing,
    rateLimiter: report.rateLimiter,
    store: report.store,
    retentionDays: retentionDays(env.ENQUIRY_RETENTION_DAYS),
    heldRetentionDays: heldRetentionDays(env.ENQUIRY_RETENTION_DAYS),
    heldPerHour: HELD_PER_HOUR,
    turnstile: report.turnstile,
    fence: inboxFence(env),
    notices: noticesSetupLines(noticesSetup(env), site.email),
  }
}

export interface InboxData {
  query: InboxQuery
  records: EnquiryRecord[]
  total: number
  pageSize: number
  setup: DeliverySetup
  /** In the held view: the held enquiries by day and by reason, for the bulk erasure. */
  held: HeldSummary | null
  /** The triage counts, the reply-by target and each listed enquiry's triage (triage.server.ts). */
  triage: TriageListData
}

export async function inboxData(env: WorkerEnv, query: InboxQuery, operator: Operator): Promise<InboxData> {
  await fillReplyBy(env)
  const { records, total } = await listEnquiries(env.ENQUIRIES, filterOf(query, operator), {
    limit: PAGE_SIZE,
    offset: (query.page - 1) * PAGE_SIZE,
  })
  const held = query.status === 'held' ? await heldSummary(env.ENQUIRIES) : null
  const triage = await triageList(env, operator, records)
  return { query, records, total, pageSize: PAGE_SIZE, setup: deliverySetup(env), held, triage }
}

export interface EnquiryDetail {
  record: EnquiryRecord
  attempts: DeliveryAttempt[]
  /** Its triage; opening its page makes a new one open (triage.server.ts). */
  triage: TriageDetail | null
}

export async function enquiryDetail(env: WorkerEnv, id: string, operator: Operator): Promise<EnquiryDetail | null> {
  if (!isEnquiryId(id)) return null
  const record = await getEnquiry(env.ENQUIRIES, id)
  if (!record) return null
  return { record, attempts: await attemptsOf(env.ENQUIRIES, id), triage: await openTriage(env, id, operator) }
}

/** An enquiry id's shape (`20261123-…`), so nothing else reaches a query. */
export function isEnquiryId(value: unknown): value is string {
  return typeof value === 'string' && /^[\w-]{1,64}$/.test(value)
}

/** One `event=admin` line: the operator by Access's ID for them, never their e-mail. */
function adminLog(request: Request, operator: Operator, action: string, fields: Record<string, string | number>) {
  log('info', { event: 'admin', requestId: requestIdFor(request), action, operator: operator.id, ...fields })
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, ...ADMIN_HEADERS } })
}

function problem(status: number, message: string): Response {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...ADMIN_HEADERS } })
}

/**
 * `POST /admin/actions` (a form post, with or without JavaScript): `action` and `id`, and for
 * erasure `confirm` equal to the id. Answers 303 back to the enquiry (or the list, after erasure)
 * with a notice code the page turns into a sentence.
 *
 * - handled: marks it handled (from any status); it is never delivered after.
 * - retry: a pending or failed enquiry is made due now and attempted in this request (a failed one
 *   gets one more attempt); a held one is released first. Delivered and handled ones are not sent.
 * - release: a held enquiry becomes pending, due now, and is attempted in this request.
 *   Neither takes an enquiry another attempt's lease holds: they answer `busy` and change nothing.
 * - erase: deletes it and its delivery history.
 */
export async function handleAdminAction(request: Request, env: WorkerEnv): Promise<Response> {
  const operator = await operatorFor(request, env)
  if (!operator) return forbidden()
  const body = await readFormBody(request)
  if (!body.ok)
    return body.status === 415
      ? problem(415, 'Send the action as a form.')
      : problem(400, 'The form data could not be read.')
  const { form } = body
  const action = form.get('action')
  const id = form.get('id')
  if (action === 'erase-held') return eraseHeldAction(form, env, request, operator)
  if (action === 'erase-person') {
    const answer = await erasePersonAction(form, env, request, operator)
    return 'redirect' in answer ? seeOther(answer.redirect) : problem(answer.status, answer.message)
  }
  if (isTriageActionName(action)) {
    if (!isEnquiryId(id)) return problem(400, 'No valid enquiry id.')
    const answer = await handleTriageAction(action, id, form, env, request, operator)
    return 'location' in answer ? seeOther(answer.location) : problem(answer.status, answer.message)
  }
  if (typeof action !== 'string' || !(ADMIN_ACTIONS as readonly string[]).includes(action))
    return problem(
      400,
      `Unknown action: use one of ${[...ADMIN_ACTIONS, ...HELD_ACTIONS, ...TRIAGE_ACTIONS].join(', ')}.`,
    )
  if (!isEnquiryId(id)) return problem(400, 'No valid enquiry id.')

  try {
    const record = await getEnquiry(env.ENQUIRIES, id)
    if (!record) return problem(404, 'No such enquiry (it may have been erased).')
    // The audit line first: an action that cannot be recorded is not done (the 503 below).
    if (action !== 'erase' || form.get('confirm') === record.id)
      await recordAudit(env.ENQUIRIES, {
        operator: operator.email,
        action,
        enquiryId: id,
        detail: `was ${record.status}`,
      })
    const notice = await act(action as AdminAction, record, form, env, request, operator)
    adminLog(request, operator, action, { enquiryId: id, result: notice })
    if (notice === 'confirm-erase') return seeOther(`/admin/erase/${encodeURIComponent(id)}`)
    return seeOther(notice === 'erased' ? `/admin?notice=erased` : enquiryPath(id, notice))
  } catch (error) {
    log('error', {
      event: 'admin_error',
      requestId: requestIdFor(request),
      action,
      enquiryId: id,
      cause: errorCause(error),
    })
    return problem(503, 'The enquiry database did not answer; nothing was changed. Try again.')
  }
}

async function act(
  action: AdminAction,
  record: EnquiryRecord,
  form: FormData,
  env: WorkerEnv,
  request: Request,
  operator: Operator,
): Promise<Notice> {
  const now = new Date().toISOString()
  switch (action) {
    case 'handled':
      return (await markHandled(env.ENQUIRIES, record.id, now, operator.email)) ? 'handled' : 'already-handled'
    case 'erase':
      if (form.get('confirm') !== record.id) return 'confirm-erase'
      return (await eraseEnquiry(env.ENQUIRIES, record.id)) ? 'erased' : 'already-erased'
    case 'release':
      // Released by someone else a moment ago, and under way: busy, as for a retry.
      if (record.status !== 'held' || !(await requeueEnquiry(env.ENQUIRIES, record.id, now, RELEASE_FROM)))
        return (await liveLeaseUntil(env.ENQUIRIES, record.id, now)) ? 'busy' : 'not-held'
      return attemptNow(env, record.id, request)
    case 'retry':
      if (record.status === 'delivered' || record.status === 'handled') return 'not-retried'
      if (!(await requeueEnquiry(env.ENQUIRIES, record.id, now, RETRY_FROM)))
        return (await liveLeaseUntil(env.ENQUIRIES, record.id, now)) ? 'busy' : 'not-retried'
      return attemptNow(env, record.id, request)
  }
}

/**
 * Claims a due pending enquiry and attempts its delivery in this request, under its own lease.
 * Busy when another attempt claimed it first (a cron run, or another operator's press).
 */
async function attemptNow(env: WorkerEnv, id: string, request: Request): Promise<Notice> {
  const started = new Date()
  const claim = await claimEnquiry(
    env.ENQUIRIES,
    id,
    started.toISOString(),
    new Date(started.getTime() + LEASE_MS).toISOString(),
  )
  if (!claim) return 'busy'
  const result = await attemptDelivery(env, claim, { requestId: requestIdFor(request) })
  if (result === 'delivered') return 'delivered'
  if (result === 'not_attempted') return 'not-configured'
  return result === 'lease_lost' ? 'busy' : 'retry-failed'
}

/** What the confirmation page shows: how many held enquiries the selection erases, up to the newest one. */
export interface HeldErasure {
  selection: HeldSelection
  count: number
  /** The newest one's time: the erasure stops there, so one held after the page was shown is kept. */
  until: string | null
}

export async function heldErasure(env: WorkerEnv, selection: HeldSelection): Promise<HeldErasure> {
  const { count, newest } = await countHeld(env.ENQUIRIES, selection)
  return { selection, count, until: newest }
}

/**
 * `action=erase-held` with `day` and/or `reason` (or neither: every held enquiry), `until` from the
 * confirmation page and `confirm=held`. Without the confirmation it sends the operator to the
 * confirmation page and erases nothing. Answers 303 back to the held list; one log line with the
 * selection and the count, never an enquiry's content.
 */
async function eraseHeldAction(
  form: FormData,
  env: WorkerEnv,
  request: Request,
  operator: Operator,
): Promise<Response> {
  const selection = parseHeldSelection({ day: form.get('day') ?? undefined, reason: form.get('reason') ?? undefined })
  if (!selection) return problem(400, 'No valid day (YYYY-MM-DD) or reason.')
  const until = form.get('until')
  if (form.get('confirm') !== 'held' || typeof until !== 'string' || Number.isNaN(Date.parse(until)))
    return seeOther(heldErasePath(selection))
  try {
    await recordAudit(env.ENQUIRIES, {
      operator: operator.email,
      action: 'erase-held',
      detail: `day ${selection.day ?? 'any'}, reason ${selection.reason ?? 'any'}, up to ${until}`,
    })
    const erased = await eraseHeld(env.ENQUIRIES, selection, until)
    const notice: Notice = erased > 0 ? 'held-erased' : 'held-none'
    adminLog(request, operator, 'erase-held', {
      day: selection.day ?? 'all',
      reason: selection.reason ?? 'all',
      erased,
      result: notice,
    })
    return seeOther(`/admin?status=held&notice=${notice}`)
  } catch (error) {
    log('error', {
      event: 'admin_error',
      requestId: requestIdFor(request),
      action: 'erase-held',
      cause: errorCause(error),
    })
    return problem(503, 'The enquiry database did not answer; nothing was changed. Try again.')
  }
}

/**
 * `GET /admin/export.csv?status=…&q=…`: the enquiries of the current filter, as CSV, streamed a
 * page at a time (`enquiriesCsvStream`). The first page is read before answering, so a database
 * that does not answer gets the 503 page; the log line follows the last row.
 */
export async function handleExport(request: Request, env: WorkerEnv): Promise<Response> {
  const operator = await operatorFor(request, env)
  if (!operator) return forbidden()
  const query = parseInboxQuery(Object.fromEntries(new URL(request.url).searchParams))
  try {
    // Never the search text in the line: it may be a person's name or address.
    await recordAudit(env.ENQUIRIES, {
      operator: operator.email,
      action: 'export',
      detail: `status ${query.status ?? 'all'}${query.q ? ', with a search' : ''}`,
    })
    const pages = enquiryPages(env.ENQUIRIES, filterOf(query, operator), {
      pageSize: EXPORT_PAGE_SIZE,
      limit: EXPORT_LIMIT,
    })
    // The first page, read now; the stream hands it over first, then reads on.
    let first: IteratorResult<EnquiryRecord[], void> | undefined = await pages.next()
    const body = enquiriesCsvStream(
      {
        next: () => {
          const page = first ?? pages.next()
          first = undefined
          return Promise.resolve(page)
        },
        return: () => pages.return(undefined),
      },
      (rows, error) => {
        if (error)
          log('error', {
            event: 'admin_error',
            requestId: requestIdFor(request),
            action: 'export',
            rows,
            cause: errorCause(error),
          })
        else adminLog(request, operator, 'export', { rows, status: query.status ?? 'all' })
      },
    )
    const day = new Date().toISOString().slice(0, 10)
    return new Response(body, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="enquiries-${day}${query.status ? `-${query.status}` : ''}.csv"`,
        ...ADMIN_HEADERS,
      },
    })
  } catch (error) {
    log('error', { event: 'admin_error', requestId: requestIdFor(request), action: 'export', cause: errorCause(error) })
    return problem(503, 'The enquiry database did not answer. Try again.')
  }
}
