// @vitest-environment node
import { describe, expect, it } from 'vitest'
import {
  allowedStates,
  NOTE_MAX,
  parseTriageAction,
  parseTriageQuery,
  transition,
  triageFilter,
} from '../../app/desk/triage'
import { isOverdue, replyBy, replyByHours, type TriageFacts } from '../../app/ledger/triage'

const ME = 'asha@aksharalabs.in'
const OTHER = 'bharat@aksharalabs.in'
const facts = (state: TriageFacts['state'], extra: Partial<TriageFacts> = {}): TriageFacts => ({
  state,
  resolution: null,
  owner: null,
  ...extra,
})

const REFUSED = { ok: false, flash: 'triage-refused' }
const UNCHANGED = { ok: false, flash: 'triage-unchanged' }
const moved = (next: Partial<TriageFacts>, flash?: string) =>
  expect.objectContaining({ ok: true, next: expect.objectContaining(next), ...(flash && { flash }) })

describe('triage moves', () => {
  it('taking an enquiry makes it mine, and a new one open; taking it again changes nothing', () => {
    expect(transition(facts('new'), { kind: 'take' }, ME)).toEqual({
      ok: true,
      next: { state: 'open', resolution: null, owner: ME },
      flash: 'triage-taken',
    })
    expect(transition(facts('replied', { owner: OTHER }), { kind: 'take' }, ME)).toEqual(
      moved({ state: 'replied', owner: ME }),
    )
    // E-mail addresses compare without case.
    expect(transition(facts('open', { owner: ME.toUpperCase() }), { kind: 'take' }, ME)).toEqual(UNCHANGED)
  })

  it('assigns to another operator or to nobody, never on a closed enquiry', () => {
    const mine = facts('open', { owner: ME })
    expect(transition(mine, { kind: 'assign', owner: OTHER }, ME)).toEqual(moved({ owner: OTHER }, 'triage-assigned'))
    expect(transition(mine, { kind: 'assign', owner: null }, ME)).toEqual(moved({ owner: null }, 'triage-unassigned'))
    expect(transition(facts('open'), { kind: 'assign', owner: null }, ME)).toEqual(UNCHANGED)
    const closed = facts('closed', { resolution: 'won', owner: ME })
    expect(transition(closed, { kind: 'assign', owner: OTHER }, ME)).toEqual(REFUSED)
    expect(transition(closed, { kind: 'take' }, OTHER)).toEqual(REFUSED)
  })

  it('replied from new or open; a closed one is reopened first, and reopening clears its resolution', () => {
    const replied = { kind: 'state', state: 'replied' } as const
    expect(transition(facts('open'), replied, ME)).toEqual(moved({ state: 'replied' }))
    expect(transition(facts('new'), replied, ME)).toEqual(moved({ state: 'replied' }))
    const closed = facts('closed', { resolution: 'lost', owner: ME })
    expect(transition(closed, replied, ME)).toEqual(REFUSED)
    expect(transition(closed, { kind: 'state', state: 'open' }, ME)).toEqual({
      ok: true,
      next: { state: 'open', resolution: null, owner: ME },
      flash: 'triage-open',
    })
    expect(transition(facts('replied'), replied, ME)).toEqual(UNCHANGED)
    expect(['new', 'open', 'replied', 'closed'].map((state) => allowedStates(state as TriageFacts['state']))).toEqual([
      ['open', 'replied'],
      ['replied'],
      ['open'],
      ['open'],
    ])
  })

  it('closes from any state with a resolution, and may change the resolution of a closed one', () => {
    for (const state of ['new', 'open', 'replied'] as const)
      expect(transition(facts(state), { kind: 'close', resolution: 'not_a_fit' }, ME)).toEqual(
        moved({ state: 'closed', resolution: 'not_a_fit' }),
      )
    const won = facts('closed', { resolution: 'won' })
    expect(transition(won, { kind: 'close', resolution: 'won' }, ME)).toEqual(UNCHANGED)
    expect(transition(won, { kind: 'close', resolution: 'spam' }, ME)).toEqual(moved({ resolution: 'spam' }))
  })

  it('a note is always allowed and makes a new enquiry open', () => {
    const note = { kind: 'note', text: 'x' } as const
    expect(transition(facts('new'), note, ME)).toEqual(moved({ state: 'open' }))
    expect(transition(facts('closed', { resolution: 'won' }), note, ME)).toEqual(
      moved({ state: 'closed', resolution: 'won' }),
    )
  })
})

describe('triage forms', () => {
  const form = (fields: Record<string, string>) => ({ get: (name: string) => fields[name] ?? null })

  it('reads each action, and says what is wrong with a bad one', () => {
    expect(parseTriageAction('triage-take', form({}))).toEqual({ kind: 'take' })
    expect(parseTriageAction('triage-assign', form({ owner: ` ${OTHER} ` }))).toEqual({ kind: 'assign', owner: OTHER })
    expect(parseTriageAction('triage-assign', form({ owner: '' }))).toEqual({ kind: 'assign', owner: null })
    expect(parseTriageAction('triage-state', form({ state: 'replied' }))).toEqual({ kind: 'state', state: 'replied' })
    expect(parseTriageAction('triage-state', form({ state: 'new' }))).toEqual({ error: 'triage-refused' })
    expect(parseTriageAction('triage-state', form({ state: 'closed' }))).toEqual({ error: 'triage-refused' })
    expect(parseTriageAction('triage-close', form({ outcome: 'spam' }))).toEqual({ kind: 'close', resolution: 'spam' })
    expect(parseTriageAction('triage-close', form({}))).toEqual({ error: 'triage-refused' })
    expect(parseTriageAction('triage-note', form({ text: '  \r\n ' }))).toEqual({ error: 'triage-empty-note' })
    expect(parseTriageAction('triage-note', form({ text: 'Called.\r\nWill send a quote.' }))).toEqual({
      kind: 'note',
      text: 'Called.\nWill send a quote.',
    })
    const long = parseTriageAction('triage-note', form({ text: 'a'.repeat(NOTE_MAX + 50) }))
    expect(long).toEqual({ kind: 'note', text: 'a'.repeat(NOTE_MAX) })
  })

  it('reads the list filters from the query string; anything else is dropped', () => {
    expect(parseTriageQuery({ state: 'open', owner: 'me', overdue: 'yes' })).toEqual({
      state: 'open',
      owner: 'me',
      overdue: true,
    })
    expect(parseTriageQuery({ state: 'pending', owner: 'someone@x.in', overdue: '1' })).toEqual({})
    expect(parseTriageQuery({ state: 'active', owner: 'none' })).toEqual({ state: 'active', owner: 'none' })
    expect(triageFilter({}, ME, '2026-11-24T00:00:00.000Z')).toBeUndefined()
    expect(triageFilter({ owner: 'me', overdue: true }, ME, '2026-11-24T00:00:00.000Z')).toEqual({
      owner: ME,
      overdueAt: '2026-11-24T00:00:00.000Z',
    })
    expect(triageFilter({ owner: 'none', state: 'new' }, ME, 'now')).toEqual({ owner: null, state: 'new' })
  })
})

describe('reply-by', () => {
  // 2026-11-23 is a Monday. One business day by default: the same time on the next weekday; a weekend
  // does not count (one received then is due at the end of Monday); other targets count weekday hours.
  it.each([
    ['2026-11-23T10:00:00.000Z', 24, '2026-11-24T10:00:00.000Z'], // Mon → Tue
    ['2026-11-26T16:30:00.000Z', 24, '2026-11-27T16:30:00.000Z'], // Thu → Fri
    ['2026-11-27T10:00:00.000Z', 24, '2026-11-30T10:00:00.000Z'], // Fri → Mon
    ['2026-11-27T23:59:00.000Z', 24, '2026-11-30T23:59:00.000Z'], // late Fri → late Mon
    ['2026-11-28T10:00:00.000Z', 24, '2026-12-01T00:00:00.000Z'], // Sat
    ['2026-11-29T23:00:00.000Z', 24, '2026-12-01T00:00:00.000Z'], // Sun
    ['2026-11-28T00:00:00.000Z', 4, '2026-11-30T04:00:00.000Z'],
    ['2026-11-27T20:00:00.000Z', 8, '2026-11-30T04:00:00.000Z'], // Fri 20:00 + 8 h
    ['2026-11-23T10:00:00.000Z', 120, '2026-11-30T10:00:00.000Z'], // a working week
    ['2026-11-23T10:00:00.000Z', 48, '2026-11-25T10:00:00.000Z'],
    ['2026-11-26T10:00:00.000Z', 48, '2026-11-30T10:00:00.000Z'], // Thu → Mon
  ] as const)('received %s with a %i h target: due %s', (received, hours, due) => {
    expect(replyBy(received, hours)).toBe(due)
  })

  it('reads INBOX_REPLY_BY_HOURS: a whole number from 1 to 480, else the default, said to be invalid', () => {
    expect(replyByHours(undefined)).toEqual({ hours: 24, invalid: false })
    expect(replyByHours('')).toEqual({ hours: 24, invalid: false })
    expect(replyByHours(' 8 ')).toEqual({ hours: 8, invalid: false })
    expect(replyByHours('480')).toEqual({ hours: 480, invalid: false })
    for (const bad of ['0', '481', '1.5', '-3', 'a day', '1e2'])
      expect(replyByHours(bad), bad).toEqual({ hours: 24, invalid: true })
  })
})

describe('overdue', () => {
  const due = '2026-11-24T10:00:00.000Z'
  it.each([
    ['new', due, '2026-11-24T10:00:01.000Z', true],
    ['open', due, '2026-11-25T00:00:00.000Z', true],
    ['open', due, due, false],
    ['open', due, '2026-11-24T09:00:00.000Z', false],
    ['replied', due, '2027-01-01T00:00:00.000Z', false],
    ['closed', due, '2027-01-01T00:00:00.000Z', false],
    ['open', null, '2027-01-01T00:00:00.000Z', false],
  ] as const)('%s, due %s, at %s: %s (only new or open past a reply-by)', (state, replyAt, now, overdue) => {
    expect(isOverdue(state, replyAt, now)).toBe(overdue)
  })
})
