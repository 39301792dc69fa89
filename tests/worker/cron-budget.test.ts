// docs/operations/quotas.md: with 200 enquiries due, each cron run stays within CRON_SUBREQUEST_BUDGET, oldest first.
import { expect, test } from 'vitest'
import { CRON_SUBREQUEST_BUDGET, DELIVERY_COST, NOTICES_RESERVE } from '../../app/cron-budget'
import { siteUnderTest, standInsForFile } from './support/fixtures'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.production() }))

const DUE = 200

test('200 due enquiries: every run within the budget, oldest first, all delivered within a bounded number of runs', async () => {
  const rows = Array.from({ length: DUE }, (_, i) => {
    const n = String(i).padStart(3, '0')
    // Received a second apart, oldest first by number; every one due now.
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + i * 1000).toISOString()
    return `('due-${n}', 'due-${n}', '${at}', 'Due ${n}', 'due-${n}@example.com', '', 'general', 'x', 'pending', '${at}')`
  })
  await worker.exec(
    `INSERT INTO enquiries (id, idempotency_key, received_at, name, email, company, subject, message, status, next_attempt_at) VALUES ${rows.join(', ')}`,
  )
  // The fewest a run delivers: three quarters of what the purges and the notices leave.
  const perRun = Math.floor(((CRON_SUBREQUEST_BUDGET - NOTICES_RESERVE - 10) * 3) / 4 / DELIVERY_COST)
  const bound = Math.ceil(DUE / perRun)
  let runs = 0
  let delivered: string[] = []
  while (delivered.length < DUE && runs < bound) {
    await worker.cron()
    runs++
    const now = await worker.sql<{ id: string }>(
      "SELECT id FROM enquiries WHERE status = 'delivered' ORDER BY received_at",
    )
    // Oldest first: what is delivered is always the oldest ones.
    expect(now.map((r) => r.id)).toEqual(rows.slice(0, now.length).map((_, i) => `due-${String(i).padStart(3, '0')}`))
    delivered = now.map((r) => r.id)
  }
  expect(delivered, `${delivered.length} of ${DUE} delivered after ${runs} runs`).toHaveLength(DUE)
  const budgets = worker.logs().filter((line) => line.event === 'cron_run')
  expect(budgets).toHaveLength(runs)
  for (const line of budgets) expect(line.subrequests as number).toBeLessThanOrEqual(CRON_SUBREQUEST_BUDGET)
  expect(stand.forms.received.length).toBe(DUE)
}, 300_000)
