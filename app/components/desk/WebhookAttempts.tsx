import type { EndpointAttempts } from '~/desk'
import { ActionForm, DeskTable, formatTime, quietButtonStyle } from './desk-ui'

/** The enquiry's webhook events: each endpoint by name and host (never its URL), its attempts, Replay. */
export function WebhookAttempts({ enquiryId, events }: { enquiryId: string; events: EndpointAttempts[] }) {
  if (events.length === 0) return null
  return (
    <section aria-labelledby="webhooks-title" className="container-page mt-10" data-testid="webhooks">
      <h2 id="webhooks-title" className="text-h3 font-semibold text-fg">
        Webhooks
      </h2>
      {events.map((event) => (
        <article
          key={event.id}
          aria-labelledby={`webhook-${event.id}`}
          className="mt-6"
          data-testid="webhook-endpoint"
          data-endpoint={event.endpoint}
        >
          <h3 id={`webhook-${event.id}`} className="font-semibold text-fg">
            {event.endpoint}
            <span className="font-normal text-muted">
              {' '}
              ({event.host ?? 'no longer configured'}
              {event.format === 'slack' ? ', Slack' : ''})
            </span>
          </h3>
          <p className="mt-1 text-muted">
            {event.type}, {event.status}; {event.attempts} attempt{event.attempts === 1 ? '' : 's'}
            {event.status === 'pending' && event.nextAttemptAt
              ? `; next attempt due ${formatTime(event.nextAttemptAt)}`
              : ''}
            . Event id <code>{event.id}</code>
          </p>
          <DeskTable
            caption={`Attempts to ${event.endpoint}, oldest first`}
            rows={event.history}
            rowKey="attempt"
            columns={[
              { head: 'Attempt', card: 'title', cell: (attempt) => attempt.attempt },
              { head: 'Time', className: 'text-muted', cell: (attempt) => formatTime(attempt.attemptedAt) },
              { head: 'Outcome', cell: (attempt) => attempt.outcome },
              { head: 'Answer', className: 'text-muted', cell: (attempt) => attempt.httpStatus ?? '—' },
              { head: 'Cause', className: 'text-muted', cell: (attempt) => attempt.cause ?? '—' },
            ]}
          />
          {event.host ? (
            <div className="mt-3">
              <ActionForm action="replay" id={enquiryId} extra={{ event: event.id }}>
                <button type="submit" className={quietButtonStyle}>
                  Replay to {event.endpoint}
                </button>
              </ActionForm>
            </div>
          ) : null}
        </article>
      ))}
    </section>
  )
}
