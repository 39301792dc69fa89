import { TRIAGE_LABELS, TRIAGE_STATES, type TriageListData, type TriageQuery, type TriageView } from '~/desk'
import { Address, controlStyle } from './desk-ui'
import { OverdueMark, TriageLabel } from './triage-panel'

/** A plain GET address, so the back button works. */
function Count({ label, count, href, current }: { label: string; count: number; href: string; current: boolean }) {
  return (
    <li>
      <a
        href={href}
        aria-current={current ? 'page' : undefined}
        className={`flex min-h-11 items-baseline gap-2 rounded-xl border px-4 py-2 transition-colors hover:border-brand-400 ${
          current ? 'border-brand-400 bg-brand-400/10 text-fg' : 'border-line-strong text-fg'
        }`}
      >
        <span className="font-medium">{label}</span>
        <span className="text-lg font-semibold tabular-nums" data-testid={`count-${label.toLowerCase()}`}>
          {count.toLocaleString('en')}
        </span>
      </a>
    </li>
  )
}

/** On the desk's first screen; `mine` and `unassigned` leave closed ones out. */
export function TriageCounts({ triage, query }: { triage: TriageListData; query: TriageQuery }) {
  const { counts, setup } = triage
  const only = (q: TriageQuery) =>
    query.state === q.state && query.owner === q.owner && Boolean(query.overdue) === Boolean(q.overdue)
  return (
    <section aria-labelledby="triage-counts-title" className="container-page mt-6">
      <h2 id="triage-counts-title" className="text-h3 font-semibold text-fg">
        Triage
      </h2>
      <ul className="mt-3 flex flex-wrap gap-3">
        {TRIAGE_STATES.map((state) => (
          <Count
            key={state}
            label={TRIAGE_LABELS[state]}
            count={counts[state]}
            href={`/admin?state=${state}`}
            current={only({ state })}
          />
        ))}
        <Count label="Overdue" count={counts.overdue} href="/admin?overdue=yes" current={only({ overdue: true })} />
        <Count
          label="Mine"
          count={counts.mine}
          href="/admin?state=active&owner=me"
          current={only({ state: 'active', owner: 'me' })}
        />
        <Count
          label="Unassigned"
          count={counts.unassigned}
          href="/admin?state=active&owner=none"
          current={only({ state: 'active', owner: 'none' })}
        />
      </ul>
      <p className="mt-2 text-sm text-muted" data-testid="triage-reply-by">
        Reply within {setup.hours} weekday hour{setup.hours === 1 ? '' : 's'} (Monday to Friday, UTC) of receipt
        {setup.invalid ? '; INBOX_REPLY_BY_HOURS is not a whole number from 1 to 480, so the default applies' : ''}.
        Mine and Unassigned leave out closed enquiries.
      </p>
    </section>
  )
}

/** Inside the desk's one GET form: every filter in one address. */
export function TriageFilterFields({ query }: { query: TriageQuery }) {
  return (
    <>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="filter-triage" className="text-sm font-medium text-fg">
          Triage state
        </label>
        <select id="filter-triage" name="state" defaultValue={query.state ?? ''} className={controlStyle}>
          <option value="">All</option>
          <option value="active">Not closed</option>
          {TRIAGE_STATES.map((state) => (
            <option key={state} value={state}>
              {TRIAGE_LABELS[state]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="filter-owner" className="text-sm font-medium text-fg">
          Owner
        </label>
        <select id="filter-owner" name="owner" defaultValue={query.owner ?? ''} className={controlStyle}>
          <option value="">Anyone</option>
          <option value="me">Me</option>
          <option value="none">Nobody</option>
        </select>
      </div>
      <div className="flex min-h-11 items-center gap-2 self-end">
        <input
          id="filter-overdue"
          name="overdue"
          type="checkbox"
          value="yes"
          defaultChecked={Boolean(query.overdue)}
          className="size-5 accent-brand-400"
        />
        <label htmlFor="filter-overdue" className="text-sm font-medium text-fg">
          Overdue only
        </label>
      </div>
    </>
  )
}

export function TriageCell({ triage, me }: { triage: TriageView | undefined; me: string }) {
  if (!triage) return <span className="text-muted">—</span>
  const mine = (triage.owner ?? '').toLowerCase() === me.toLowerCase()
  return (
    // One line where the column allows (25 rows fit a laptop screen: docs/desk.md, "The desk").
    <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
      <TriageLabel triage={triage} compact />
      <span className="text-muted" data-testid="list-owner">
        {triage.owner ? mine ? 'you' : <Address address={triage.owner} /> : 'nobody'}
      </span>
      {triage.overdue ? <OverdueMark /> : null}
    </div>
  )
}
