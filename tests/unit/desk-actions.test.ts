// @vitest-environment node
// The desk's actions as one table (app/desk/actions.ts), its forms, handlers and dispatcher.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUDIT_LABELS, DESK_ACTION_NAMES, DESK_ACTIONS } from '~/desk/actions'
import { DESK_ACTION_HANDLERS } from '~/desk/actions.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { type AccessKeyServer, startAccessKeys } from '../support/access-keys'
import { type SqliteD1, sqliteD1 } from '../support/d1-sqlite'
import { contactEnv } from '../support/fake-env'
import { deskPost } from '../support/ledger'

/** The desk's pages and components, where its forms are. */
const deskSources = (): string[] =>
  ['app/routes/admin', 'app/components/desk'].flatMap((folder) =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.tsx'))
      .map((file) => readFileSync(join(folder, file), 'utf8')),
  )

describe('the table', () => {
  it('has a handler for every action, and nothing else', () => {
    expect(Object.keys(DESK_ACTION_HANDLERS).sort()).toEqual([...DESK_ACTION_NAMES].sort())
  })

  it('is where every desk form takes its action’s name, and the trail its words', () => {
    // `<ActionForm action="…">`, and `action: '…'` handed to the erasures' confirmation page (a
    // form's own `action="/admin…"` is an address).
    const posted = deskSources().flatMap((text) =>
      [...text.matchAll(/\baction(?:=|: )["']([^"'/][^"']*)["']/g)].map((match) => match[1]),
    )
    expect(posted.length).toBeGreaterThan(10)
    for (const name of posted) expect(DESK_ACTION_NAMES, String(name)).toContain(name)
    // One form posts to the dispatcher: ActionForm's, so none names its action around the table.
    const posts = deskSources().flatMap((text) => text.match(/action="\/admin\/actions"/g) ?? [])
    expect(posts).toHaveLength(1)
    for (const facts of Object.values(DESK_ACTIONS)) expect(AUDIT_LABELS[facts.audit]).toBe(facts.label)
  })
})

describe('the dispatcher', () => {
  let keys: AccessKeyServer
  let d1: SqliteD1
  beforeAll(async () => {
    keys = await startAccessKeys()
    d1 = sqliteD1()
  })
  afterAll(async () => {
    d1.close()
    await keys.close()
  })

  const post = async (fields: Record<string, string>) => {
    const env = { ...contactEnv({ ENQUIRIES: d1.db }), ...keys.vars() } as WorkerEnv
    const response = await deskPost(keys, env, fields)
    return { status: response.status, text: await response.text() }
  }

  it('refuses an unknown action with a message that names every action', async () => {
    for (const action of ['archive', '', 'toString', '__proto__']) {
      const answer = await post({ action, id: '20261124-abcdefgh' })
      expect(answer.status, action).toBe(400)
      expect(answer.text).toContain('Unknown action')
      for (const name of DESK_ACTION_NAMES) expect(answer.text).toContain(name)
    }
  })

  it('refuses an action on an enquiry without a valid enquiry id, and changes nothing', async () => {
    for (const [name, facts] of Object.entries(DESK_ACTIONS)) {
      if (!facts.enquiry) continue
      const answer = await post({ action: name, id: '../nope' })
      expect(answer.status, name).toBe(400)
      expect(answer.text).toContain('No valid enquiry id')
    }
    expect(d1.query('SELECT * FROM audit_log')).toEqual([])
  })
})
