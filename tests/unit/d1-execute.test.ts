// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { lockedByRunningSite } from '../../scripts/d1-execute'

// What `wrangler d1 execute --local --json` (wrangler 4.151) printed while another connection held
// the database file's write lock (`BEGIN IMMEDIATE`), as `npm start`'s workerd does mid-write.
const readUnderLock = `{
  "error": {
    "text": "Failed to get session commit token: internal error; reference = gomuqslqglfivrd7eauf46bm"
  }
}`
const writeUnderLock = `{
  "error": {
    "text": "database is locked: SQLITE_BUSY"
  }
}`

describe("the operator's command and the running site's lock", () => {
  it('knows the lock in a read and in a write, with or without workerd’s own log line', () => {
    expect(lockedByRunningSite(readUnderLock)).toBe(true)
    expect(
      lockedByRunningSite(
        `${readUnderLock}\ne = workerd/util/sqlite.c++:1744: failed: SQLite failed; dbErrorMessage(err, db) = database is locked: SQLITE_BUSY`,
      ),
    ).toBe(true)
    expect(lockedByRunningSite(writeUnderLock)).toBe(true)
  })

  it('does not take another failure for the lock, so it is said at once rather than tried again', () => {
    expect(lockedByRunningSite('{ "error": { "text": "no such table: enquiries: SQLITE_ERROR" } }')).toBe(false)
    expect(lockedByRunningSite("✘ [ERROR] Couldn't find a D1 DB with the name or binding 'ENQUIRIES'")).toBe(false)
  })
})
