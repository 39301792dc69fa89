// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { sqliteD1 } from '../support/d1-sqlite'

describe('the SQLite stand-in for D1', () => {
  it('has the migrated tables, with foreign keys enforced', async () => {
    const d1 = sqliteD1()
    const tables = d1.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    expect(tables.map((t) => t.name)).toEqual([
      'audit_log',
      'contact_rate',
      'contact_rate_keys',
      'early_access',
      'enquiries',
      'enquiry_attempts',
      'enquiry_notes',
      'held_network_keys',
      'inbox_operators',
      'notices',
      'receipt_counts',
      'receipt_days',
      'sqlite_sequence',
      'webhook_attempts',
      'webhook_events',
    ])
    await expect(
      d1.db
        .prepare(
          "INSERT INTO enquiry_attempts (enquiry_id, attempt, attempted_at, delivery, outcome) VALUES (?1, 1, 'x', 'email', 'failed')",
        )
        .bind('no-such-enquiry')
        .run(),
    ).rejects.toThrow(/FOREIGN KEY/)
  })

  it('binds numbered parameters, returns rows from RETURNING, and counts changes', async () => {
    const { db } = sqliteD1()
    const insert = (id: string, key: string) =>
      db
        .prepare(
          `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, subject, message)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id, status, attempts`,
        )
        .bind(id, key, '2026-01-01T00:00:00.000Z', 'N', 'n@example.com', 'general', 'M')
        .first()
    expect(await insert('a', 'k1')).toEqual({ id: 'a', status: 'pending', attempts: 0 })
    expect(await insert('b', 'k1')).toBeNull()
    expect(await db.prepare('SELECT id FROM enquiries WHERE id = ?1').bind('a').first('id')).toBe('a')
    const all = await db.prepare('SELECT id FROM enquiries').all()
    expect(all).toMatchObject({ success: true, results: [{ id: 'a' }] })
    const run = await db.prepare("UPDATE enquiries SET status = 'failed' WHERE id = ?2 AND ?1 = 1").bind(1, 'a').run()
    expect(run.meta.changes).toBe(1)
    expect(() => db.prepare('SELECT 1').bind(undefined)).toThrow(/D1_TYPE_ERROR/)
  })

  it('runs a batch in one transaction: all or nothing', async () => {
    const d1 = sqliteD1()
    const add = (id: string) =>
      d1.db
        .prepare(
          "INSERT INTO enquiries (id, idempotency_key, received_at, name, email, subject, message) VALUES (?1, ?1, 'x', 'n', 'e', 's', 'm')",
        )
        .bind(id)
    await expect(d1.db.batch([add('a'), add('a')])).rejects.toThrow(/UNIQUE/)
    expect(d1.query('SELECT id FROM enquiries')).toEqual([])
    await d1.db.batch([add('a'), add('b')])
    expect(d1.query('SELECT id FROM enquiries ORDER BY id')).toEqual([{ id: 'a' }, { id: 'b' }])
  })

  it('fails or hangs on demand', async () => {
    const d1 = sqliteD1()
    d1.failNext(new Error('boom'), /UPDATE/)
    await expect(d1.db.prepare('SELECT 1 AS n').first('n')).resolves.toBe(1)
    await expect(d1.db.prepare('UPDATE enquiries SET status = status').run()).rejects.toThrow('boom')
    d1.broken = true
    await expect(d1.db.prepare('SELECT 1').first()).rejects.toThrow(/D1_ERROR/)
    d1.broken = false
    d1.hang = true
    const settled = await Promise.race([
      d1.db
        .prepare('SELECT 1')
        .first()
        .then(() => 'settled'),
      new Promise((resolve) => setTimeout(resolve, 50, 'pending')),
    ])
    expect(settled).toBe('pending')
  })
})
