import { type AuditLine, auditLabel } from '~/desk'
import { formatTime } from './desk-ui'

/** Oldest first; nothing in the desk edits it. */
export function AuditTrail({ lines }: { lines: readonly AuditLine[] }) {
  return (
    <section aria-labelledby="audit-title" className="container-page mt-10">
      <h2 id="audit-title" className="text-h3 font-semibold text-fg">
        Audit trail
      </h2>
      {lines.length === 0 ? (
        <p className="mt-2 text-muted">No actions recorded yet.</p>
      ) : (
        <ol className="mt-3 grid gap-1 text-sm" data-testid="audit-trail">
          {lines.map((line) => (
            <li key={line.seq} className="flex flex-wrap gap-x-3 border-b border-line py-1">
              <span className="whitespace-nowrap text-muted">{formatTime(line.at)}</span>
              <span className="font-medium text-fg">{auditLabel(line.action)}</span>
              <span className="break-all text-muted">{line.operator}</span>
              {line.detail ? <span className="text-muted">({line.detail})</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
