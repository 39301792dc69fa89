import {
  allowedStates,
  NOTE_MAX,
  RESOLUTION_LABELS,
  seenFields,
  TRIAGE_LABELS,
  type TriageDetail,
  type TriageView,
} from '~/desk'
import { ActionForm, buttonStyle, controlStyle, formatTime, quietButtonStyle } from './desk-ui'

/** Words, not colour alone. */
export function OverdueMark() {
  return (
    <span
      className="inline-block rounded-full border border-danger/60 bg-danger/10 px-2.5 py-0.5 text-sm font-semibold text-danger"
      data-testid="overdue"
    >
      <span aria-hidden="true">! </span>Overdue
    </span>
  )
}

export function TriageLabel({
  triage,
  compact = false,
}: {
  triage: Pick<TriageView, 'state' | 'resolution'>
  /** In the list a closed one without a resolution is just "Closed", so a row stays one line. */
  compact?: boolean
}) {
  const resolution = triage.resolution ? RESOLUTION_LABELS[triage.resolution] : compact ? '' : 'no outcome recorded'
  return (
    <span
      className="inline-block rounded-full border border-line-strong px-2.5 py-0.5 text-sm font-medium whitespace-nowrap text-fg"
      data-testid="triage-state"
    >
      {TRIAGE_LABELS[triage.state]}
      {triage.state === 'closed' && resolution ? `: ${resolution}` : ''}
    </span>
  )
}

const sameEmail = (a: string | null, b: string) => (a ?? '').toLowerCase() === b.toLowerCase()

/** The moves allowed from here, each a plain form post to /admin/actions, and the notes, oldest first. */
export function TriagePanel({ id, triage }: { id: string; triage: TriageDetail }) {
  const closed = triage.state === 'closed'
  const mine = sameEmail(triage.owner, triage.me)
  // Every move carries the triage this page shows, so a move on a stale page is refused.
  const seen = seenFields(triage)
  return (
    <section aria-labelledby="triage-title" className="container-page mt-10">
      <div className="glass p-6 sm:p-8">
        <h2 id="triage-title" className="text-h3 font-semibold text-fg">
          Triage
        </h2>
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-muted sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-fg">State</dt>
          <dd>
            <TriageLabel triage={triage} />
          </dd>
          <dt className="font-medium text-fg">Owner</dt>
          <dd data-testid="triage-owner">{triage.owner ? `${triage.owner}${mine ? ' (you)' : ''}` : 'Nobody yet'}</dd>
          <dt className="font-medium text-fg">Reply by</dt>
          <dd className="flex flex-wrap items-center gap-3" data-testid="triage-reply-by-time">
            <span>{triage.replyBy ? formatTime(triage.replyBy) : 'No target'}</span>
            {triage.overdue ? <OverdueMark /> : null}
          </dd>
        </dl>

        <div className="mt-6 grid gap-6 md:grid-cols-2">
          <div className="flex flex-col items-start gap-4">
            {!closed && !mine ? (
              <ActionForm action="triage-take" id={id} extra={seen}>
                <button type="submit" className={buttonStyle}>
                  Take it
                </button>
              </ActionForm>
            ) : null}
            {!closed ? (
              <ActionForm action="triage-assign" id={id} extra={seen}>
                <div className="flex flex-wrap items-end gap-3">
                  <div className="flex flex-col gap-1.5">
                    <label htmlFor="triage-owner-select" className="text-sm font-medium text-fg">
                      Assign to
                    </label>
                    <select
                      id="triage-owner-select"
                      name="owner"
                      defaultValue={triage.owner?.toLowerCase() ?? ''}
                      className={controlStyle}
                    >
                      <option value="">Nobody</option>
                      {triage.operators.map((email) => (
                        <option key={email} value={email}>
                          {email}
                        </option>
                      ))}
                    </select>
                  </div>
                  <button type="submit" className={quietButtonStyle}>
                    Assign
                  </button>
                </div>
              </ActionForm>
            ) : null}
            <div className="flex flex-wrap gap-3">
              {allowedStates(triage.state).map((state) => (
                <ActionForm key={state} action="triage-state" id={id} extra={{ ...seen, state }}>
                  <button type="submit" className={quietButtonStyle}>
                    {state === 'open' ? (closed ? 'Reopen' : 'Mark open') : 'Mark replied'}
                  </button>
                </ActionForm>
              ))}
            </div>
            <ActionForm action="triage-close" id={id} extra={seen}>
              <div className="flex flex-wrap items-end gap-3">
                <div className="flex flex-col gap-1.5">
                  <label htmlFor="triage-outcome" className="text-sm font-medium text-fg">
                    Outcome
                  </label>
                  <select
                    id="triage-outcome"
                    name="outcome"
                    defaultValue={triage.resolution ?? 'won'}
                    className={controlStyle}
                  >
                    {Object.entries(RESOLUTION_LABELS).map(([resolution, label]) => (
                      <option key={resolution} value={resolution}>
                        {label}
                      </option>
                    ))}
                  </select>
                </div>
                <button type="submit" className={quietButtonStyle}>
                  {closed ? 'Change outcome' : 'Close'}
                </button>
              </div>
            </ActionForm>
          </div>

          <ActionForm action="triage-note" id={id}>
            <div className="flex flex-col gap-1.5">
              <label htmlFor="triage-note" className="text-sm font-medium text-fg">
                Note (only operators see it)
              </label>
              <textarea id="triage-note" name="text" required rows={4} maxLength={NOTE_MAX} className={controlStyle} />
            </div>
            <button type="submit" className={`${quietButtonStyle} mt-3`}>
              Add note
            </button>
          </ActionForm>
        </div>

        <h3 className="mt-8 text-lg font-semibold text-fg">Notes</h3>
        {triage.notes.length === 0 ? (
          <p className="mt-2 text-muted">No notes yet.</p>
        ) : (
          <ol className="mt-3 flex flex-col gap-3" aria-label="Notes, oldest first">
            {triage.notes.map((note, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
              <li key={index} className="rounded-xl border border-line p-4" data-testid="note">
                <p className="text-sm text-muted">
                  {note.author}, {formatTime(note.at)}
                </p>
                <p className="mt-1 whitespace-pre-wrap break-words text-fg">{note.text}</p>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  )
}
