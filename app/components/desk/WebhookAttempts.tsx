import type { EndpointAttempts } from '~/desk'
import { ActionForm, ColumnHeads, formatTime, quietButtonStyle } from './desk-ui'

/**
 * The enquiry's webhook events (docs/integrations.md): each endpoint by name and host (never its
 * URL), its attempts, and Replay, which sends the event again with the same webhook-id.
 */
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
          {event.history.length > 0 ? (
            <div className="mt-3 overflow-x-auto">
              <table className="w-full min-w-[36rem] border-collapse text-left">
                <caption className="sr-only">Attempts to {event.endpoint}, oldest first</caption>
                <ColumnHeads names={['Attempt', 'Time', 'Outcome', 'Answer', 'Cause']} />
                <tbody>
                  {event.history.map((attempt) => (
                    <tr key={attempt.attempt} className="border-b border-line">
                      <td className="py-2 pr-4">{attempt.attempt}</td>
                      <td className="py-2 pr-4 text-muted">{formatTime(attempt.attemptedAt)}</td>
                      <td className="py-2 pr-4">{attempt.outcome}</td>
                      <td className="py-2 pr-4 text-muted">{attempt.httpStatus ?? '—'}</td>
                      <td className="py-2 pr-4 text-muted">{attempt.cause ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
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
