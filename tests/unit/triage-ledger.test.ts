// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { openTriage } from '../../app/desk/enquiry.server'
import type { TriageAction } from '../../app/desk/triage'
import { applyTriageAction } from '../../app/desk/triage-actions.server'
import {
  type EnquiryFilter,
  eraseEnquiry,
  fillReplyBy,
  listEnquiries,
  triageCounts,
} from '../../app/ledger/index.server'
import type { WorkerEnv } from '../../app/server/runtime.server'
import { sqliteD1 } from '../support/d1-sqlite'
import { storedEnquiry } from '../support/ledger'

const ASHA = { email: 'asha@aksharalabs.in', id: 'id-asha' }
const BHARAT = { email: 'bharat@aksharalabs.in', id: 'id-bharat' }

describe('migration 0005', () => {
  it('counts delivered rows as read (open), handled ones as closed with no outcome, and the rest as new', () => {
    const sqlite = new DatabaseSync(':memory:')
    const files = readdirSync('migrations').sort()
    for (const file of files.filter((name) => name < '0005')) sqlite.exec(readFileSync(`migrations/${file}`, 'utf8'))
    const insert = sqlite.prepare(
      `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, subject, message, status) VALUES (?, ?, '2026-01-01T00:00:00.000Z', 'N', 'n@example.com', 'general', 'm', ?)`,
    )
    for (const status of ['pending', 'delivered', 'failed', 'held', 'handled']) insert.run(status, status, status)
    for (const file of files.filter((name) => name >= '0005')) sqlite.exec(readFileSync(`migrations/${file}`, 'utf8'))
    const rows = sqlite.prepare('SELECT id, triage, outcome, owner, reply_by FROM enquiries ORDER BY id').all()
    expect(rows.map((row) => ({ ...row }))).toEqual([
      { id: 'delivered', triage: 'open', outcome: null, owner: null, reply_by: null },
      { id: 'failed', triage: 'new', outcome: null, owner: null, reply_by: null },
      { id: 'handled', triage: 'closed', outcome: null, owner: null, reply_by: null },
      { id: 'held', triage: 'new', outcome: null, owner: null, reply_by: null },
      { id: 'pending', triage: 'new', outcome: null, owner: null, reply_by: null },
    ])
    expect(() => sqlite.exec(`UPDATE enquiries SET triage = 'done'`)).toThrow(/CHECK/)
    sqlite.close()
  })
})

describe('triage in D1', () => {
  it('writes reply-by for new, not held, enquiries, and the overdue filter and counts use it', async () => {
    const d1 = sqliteD1()
    const env = { ENQUIRIES: d1.db, INBOX_REPLY_BY_HOURS: '8' } as WorkerEnv
    const friday = await storedEnquiry(d1.db, '2026-11-27T20:00:00.000Z')
    const held = await storedEnquiry(d1.db, '2026-11-27T20:00:00.000Z', {}, true)
    const recent = await storedEnquiry(d1.db, '2026-11-30T10:00:00.000Z')
    expect(await fillReplyBy(env)).toBe(2)
    const replyBy = (id: string) =>
      d1.row<{ reply_by: string | null }>('SELECT reply_by FROM enquiries WHERE id = ?', id)
    expect(replyBy(friday)?.reply_by).toBe('2026-11-30T04:00:00.000Z')
    expect(replyBy(held)?.reply_by).toBeNull()
    expect(await fillReplyBy(env)).toBe(0)

    const now = '2026-11-30T12:00:00.000Z'
    const overdue = await listEnquiries(d1.db, { triage: { overdueAt: now } }, { limit: 10, offset: 0 })
    expect(overdue.records.map((record) => record.id)).toEqual([friday])
    expect(await triageCounts(env.ENQUIRIES, ASHA.email, now)).toMatchObject({
      new: 3,
      overdue: 1,
      unassigned: 3,
      mine: 0,
    })

    // Replied: no longer overdue.
    expect(await applyTriageAction(env, ASHA, friday, { kind: 'state', state: 'replied' }, now)).toBe('triage-replied')
    expect(await triageCounts(env.ENQUIRIES, ASHA.email, now)).toMatchObject({ new: 2, replied: 1, overdue: 0 })
    expect(recent).toBeTruthy()
    d1.close()
  })

  it('two operators: take, assign, note, close; a move on a changed enquiry is stale and writes nothing', async () => {
    const d1 = sqliteD1()
    const env = { ENQUIRIES: d1.db } as WorkerEnv
    const id = await storedEnquiry(d1.db, '2026-11-23T10:00:00.000Z')

    const act = (who: typeof ASHA, action: TriageAction, at?: string) => applyTriageAction(env, who, id, action, at)
    const opened = await openTriage(env, id, ASHA)
    expect(opened).toMatchObject({ state: 'open', owner: null, replyBy: '2026-11-24T10:00:00.000Z', notes: [] })
    // Without an allow-list, only operators the desk has seen can be assigned: Bharat is not one yet.
    expect(await act(ASHA, { kind: 'assign', owner: BHARAT.email })).toBe('triage-unknown-operator')
    expect(await act(BHARAT, { kind: 'take' })).toBe('triage-taken')
    expect(await act(ASHA, { kind: 'assign', owner: 'ASHA@aksharalabs.in' })).toBe('triage-assigned')
    expect(await act(BHARAT, { kind: 'note', text: 'Called them.' }, '2026-11-23T11:00:00.000Z')).toBe('triage-noted')
    expect(await act(ASHA, { kind: 'close', resolution: 'won' })).toBe('triage-closed')
    expect(await act(BHARAT, { kind: 'take' })).toBe('triage-refused')

    const detail = await openTriage(env, id, BHARAT)
    expect(detail).toMatchObject({
      state: 'closed',
      resolution: 'won',
      owner: 'asha@aksharalabs.in',
      notes: [{ author: BHARAT.email, at: '2026-11-23T11:00:00.000Z', text: 'Called them.' }],
    })
    expect(detail?.operators).toEqual([ASHA.email, BHARAT.email])

    // Someone else's write lands between this read and this write: nothing is written.
    const db = d1.db
    const racing = {
      ...db,
      prepare: (sql: string) => {
        if (sql.startsWith('UPDATE enquiries SET triage = ?5'))
          d1.sqlite.exec(`UPDATE enquiries SET outcome = 'lost' WHERE id = '${id}'`)
        return db.prepare(sql)
      },
    } as D1Database
    expect(
      await applyTriageAction({ ENQUIRIES: racing } as WorkerEnv, ASHA, id, { kind: 'state', state: 'open' }),
    ).toBe('triage-stale')
    expect(d1.row('SELECT triage, outcome FROM enquiries WHERE id = ?', id)).toEqual({
      triage: 'closed',
      outcome: 'lost',
    })

    // The database refuses a note longer than the cap, and erasing the enquiry erases its notes.
    expect(() =>
      d1.sqlite.exec(
        `INSERT INTO enquiry_notes (enquiry_id, author, created_at, body) VALUES ('${id}', 'x', 'y', '${'a'.repeat(2001)}')`,
      ),
    ).toThrow(/CHECK/)
    expect(await eraseEnquiry(d1.db, id)).toBe(true)
    expect(d1.query('SELECT * FROM enquiry_notes')).toEqual([])
    expect(await act(ASHA, { kind: 'note', text: 'late' })).toBe('missing')
    d1.close()
  })

  it('with an allow-list, an enquiry can be assigned to anyone on it, and no one else', async () => {
    const d1 = sqliteD1()
    const env = { ENQUIRIES: d1.db, ACCESS_ALLOWED_EMAILS: 'Asha@aksharalabs.in, bharat@aksharalabs.in' } as WorkerEnv
    const id = await storedEnquiry(d1.db, '2026-11-23T10:00:00.000Z')
    const act = (who: typeof ASHA, action: TriageAction) => applyTriageAction(env, who, id, action)
    const total = async (triage: EnquiryFilter['triage']) =>
      (await listEnquiries(d1.db, { triage }, { limit: 5, offset: 0 })).total
    expect(await act(ASHA, { kind: 'assign', owner: 'stranger@example.com' })).toBe('triage-unknown-operator')
    expect(await act(ASHA, { kind: 'assign', owner: BHARAT.email })).toBe('triage-assigned')
    expect(await total({ owner: 'BHARAT@aksharalabs.in' })).toBe(1)
    expect(await total({ owner: null })).toBe(0)
    // "Not closed": every state but closed.
    expect(await total({ state: 'active' })).toBe(1)
    expect(await act(BHARAT, { kind: 'close', resolution: 'spam' })).toBe('triage-closed')
    expect(await total({ state: 'active' })).toBe(0)
    d1.close()
  })
})
