import { createFileRoute } from '@tanstack/react-router'
import { Fragment } from 'react'
import { AuditTrail } from '~/components/desk/AuditTrail'
import {
  ActionFlash,
  ActionForm,
  BackToDesk,
  buttonStyle,
  DeskTable,
  dangerButtonStyle,
  formatTime,
  linkStyle,
  quietButtonStyle,
  StatusLabel,
} from '~/components/desk/desk-ui'
import { EnquirySourceDetails } from '~/components/desk/EnquirySourceDetails'
import { TriagePanel } from '~/components/desk/triage-panel'
import { WebhookAttempts } from '~/components/desk/WebhookAttempts'
import { PageHero } from '~/components/sections/PageHero'
import { ENQUIRY_FIELDS, LINE_FIELDS, lastMoveText, loadEnquiry, mailtoHref, SEEN_STATUS } from '~/desk'
import { deskHead, searchText } from '~/desk/head'

export const Route = createFileRoute('/admin/enquiries/$id')({
  validateSearch: (search: Record<string, unknown>) => searchText(search, 'flash'),
  loader: ({ params }) => loadEnquiry({ data: { id: params.id } }),
  head: () => deskHead('Enquiry'),
  component: EnquiryPage,
})

/** The one-line fields below *From* (which shows the name and the address). */
const DETAIL_FIELDS = LINE_FIELDS.filter((field) => field !== 'name' && field !== 'email')

/** A reply link that can name no other recipient or header (mailto.ts), else text. */
function ReplyLink({ address }: { address: string }) {
  const href = mailtoHref(address)
  if (!href) return <span data-testid="reply-address">{address}</span>
  return (
    <a href={href} className={linkStyle} data-testid="reply-address">
      {address}
    </a>
  )
}

function EnquiryPage() {
  const { record, attempts, webhooks, audit, triage } = Route.useLoaderData()
  const { flash } = Route.useSearch()
  const canRetry = record.status === 'pending' || record.status === 'failed'
  const seen = { [SEEN_STATUS]: record.status }
  const stale = flash === 'triage-stale' || flash === 'status-stale'

  return (
    <>
      <PageHero
        breadcrumb={<BackToDesk />}
        eyebrow={`Enquiry ${record.id}`}
        title={record.name}
        lead={
          <p className="flex flex-wrap items-center gap-3">
            <StatusLabel status={record.status} /> <span>{record.subjectLabel}</span>
          </p>
        }
      />
      <div className="container-page">
        <ActionFlash code={flash} detail={stale && triage ? lastMoveText(audit, triage.me) : null} />
      </div>

      <div className="container-page mt-10 grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <section aria-labelledby="message-title" className="glass p-6 sm:p-8">
          <h2 id="message-title" className="text-h3 font-semibold text-fg">
            Message
          </h2>
          <dl className="mt-4 grid gap-x-6 gap-y-2 text-muted sm:grid-cols-[auto_1fr]">
            <dt className="font-medium text-fg">From</dt>
            <dd>
              {record.name} &lt;
              <ReplyLink address={record.email} />
              &gt;
            </dd>
            {DETAIL_FIELDS.map((field) => (
              <Fragment key={field}>
                <dt className="font-medium text-fg">{ENQUIRY_FIELDS[field].heading}</dt>
                <dd>{record[field] || '—'}</dd>
              </Fragment>
            ))}
            <dt className="font-medium text-fg">Received</dt>
            <dd>{formatTime(record.receivedAt)}</dd>
            {record.status === 'held' ? (
              <>
                <dt className="font-medium text-fg">Held because</dt>
                <dd>{record.heldReason ?? '—'}</dd>
              </>
            ) : null}
            {record.status === 'handled' ? (
              <>
                <dt className="font-medium text-fg">Handled</dt>
                <dd>
                  {formatTime(record.handledAt)} by {record.handledBy ?? '—'}
                </dd>
              </>
            ) : null}
          </dl>
          <div
            className="mt-6 rounded-xl border border-line bg-ink-950/60 p-4 whitespace-pre-wrap break-words text-fg"
            data-testid="message"
          >
            {record.message}
          </div>
        </section>

        <section aria-labelledby="actions-title" className="glass p-6 sm:p-8">
          <h2 id="actions-title" className="text-h3 font-semibold text-fg">
            Actions
          </h2>
          <div className="mt-4 flex flex-col items-start gap-3">
            {record.status !== 'handled' ? (
              <ActionForm action="handled" id={record.id} extra={seen}>
                <button type="submit" className={buttonStyle}>
                  Mark handled
                </button>
              </ActionForm>
            ) : null}
            {canRetry ? (
              <ActionForm action="retry" id={record.id} extra={seen}>
                <button type="submit" className={quietButtonStyle}>
                  Retry delivery now
                </button>
              </ActionForm>
            ) : null}
            {record.status === 'held' ? (
              <ActionForm action="release" id={record.id} extra={seen}>
                <button type="submit" className={quietButtonStyle}>
                  Release and deliver
                </button>
              </ActionForm>
            ) : null}
            <a href={`/admin/erase/${encodeURIComponent(record.id)}`} className={dangerButtonStyle}>
              Erase…
            </a>
          </div>
        </section>
      </div>

      {triage ? <TriagePanel id={record.id} triage={triage} /> : null}

      <EnquirySourceDetails source={record.source} />

      <section aria-labelledby="history-title" className="container-page mt-10">
        <h2 id="history-title" className="text-h3 font-semibold text-fg">
          Delivery history
        </h2>
        <p className="mt-2 text-muted">
          {record.attempts} attempt{record.attempts === 1 ? '' : 's'}
          {record.status === 'pending' ? `; next attempt due ${formatTime(record.nextAttemptAt)}` : ''}
          {record.deliveredAt ? `; delivered ${formatTime(record.deliveredAt)} by ${record.deliveredBy ?? '—'}` : ''}.
        </p>
        <DeskTable
          className="mt-4"
          caption="Delivery attempts, oldest first"
          rows={attempts}
          rowKey="attempt"
          columns={[
            { head: 'Attempt', card: 'title', cell: (attempt) => attempt.attempt },
            { head: 'Time', className: 'text-muted', cell: (attempt) => formatTime(attempt.attemptedAt) },
            { head: 'Delivery', className: 'text-muted', cell: (attempt) => attempt.delivery },
            { head: 'Outcome', cell: (attempt) => attempt.outcome },
            { head: 'Cause', className: 'text-muted', cell: (attempt) => attempt.cause ?? '—' },
          ]}
        />
      </section>
      <WebhookAttempts enquiryId={record.id} events={webhooks} />
      <AuditTrail lines={audit} />
    </>
  )
}
