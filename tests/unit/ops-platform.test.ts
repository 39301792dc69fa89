// @vitest-environment node
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  API_MAX_PAUSE_MS,
  API_TRIES,
  CloudflareApiError,
  cloudflareApi,
  cloudflareApiAll,
  retryPauseMs,
} from '../../scripts/ci/lib'
import { destructiveChanges, migrationProblems } from '../../scripts/ci/migrations'
import { workerNotFound } from '../../scripts/ci/versions'

/** A stand-in API answering from a list of answers, one a call, recording the paths asked. */
let server: Server
let answers: { status: number; body: unknown; headers?: Record<string, string> }[] = []
const asked: string[] = []
const saved = { ...process.env }

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '')
    const answer = answers.shift() ?? { status: 500, body: { success: false, errors: [{ code: 1, message: 'none' }] } }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
    res.end(JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  process.env.CLOUDFLARE_API_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  process.env.CLOUDFLARE_ACCOUNT_ID = 'account'
  process.env.CLOUDFLARE_API_TOKEN = 'token'
})
beforeEach(() => {
  asked.length = 0
})
afterAll(async () => {
  for (const key of ['CLOUDFLARE_API_BASE_URL', 'CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_API_TOKEN']) {
    if (saved[key] === undefined) delete process.env[key]
    else process.env[key] = saved[key]
  }
  await new Promise((resolve) => server.close(resolve))
})

const ok = (result: unknown, resultInfo?: unknown) => ({
  status: 200,
  body: { success: true, errors: [], result, ...(resultInfo ? { result_info: resultInfo } : {}) },
})
const refused = (status: number, code: number, headers?: Record<string, string>) => ({
  status,
  body: { success: false, errors: [{ code, message: 'refused' }] },
  headers,
})

describe("Cloudflare's API answers (docs/operations/rollback.md)", () => {
  it('tries a 429 again after its Retry-After, and a 5xx again, then answers', async () => {
    answers = [refused(429, 971, { 'Retry-After': '0' }), refused(502, 10013, { 'Retry-After': '0' }), ok({ id: 'x' })]
    expect(await cloudflareApi('/workers/scripts/site')).toEqual({ id: 'x' })
    expect(asked).toHaveLength(3)
  })

  it(`gives up after ${API_TRIES} tries, with the last answer's status and code`, async () => {
    answers = Array.from({ length: API_TRIES }, () => refused(503, 10013, { 'Retry-After': '0' }))
    const error = await cloudflareApi('/workers/scripts/site').catch((e) => e)
    expect(error).toBeInstanceOf(CloudflareApiError)
    expect(error).toMatchObject({ status: 503, code: 10013 })
    expect(asked).toHaveLength(API_TRIES)
  })

  it('never tries a 4xx other than 429 again', async () => {
    answers = [refused(404, 10007)]
    await expect(cloudflareApi('/workers/scripts/site')).rejects.toMatchObject({ code: 10007 })
    expect(asked).toHaveLength(1)
  })

  it('pauses for Retry-After (seconds or a date), else 1 s, 2 s, 4 s…, never past the ceiling', () => {
    expect(retryPauseMs(1, '3')).toBe(3000)
    expect(retryPauseMs(1, '3600')).toBe(API_MAX_PAUSE_MS)
    expect(retryPauseMs(1, new Date(10_000).toUTCString(), 5_000)).toBe(5000)
    expect([1, 2, 3].map((n) => retryPauseMs(n, null))).toEqual([1000, 2000, 4000])
    expect(retryPauseMs(10, null)).toBe(API_MAX_PAUSE_MS)
  })

  it('reads every page of a list, by result_info', async () => {
    const info = (page: number) => ({ page, per_page: 2, count: 2, total_count: 5, total_pages: 3 })
    answers = [ok({ items: [1, 2] }, info(1)), ok({ items: [3, 4] }, info(2)), ok({ items: [5] }, info(3))]
    const all = await cloudflareApiAll<{ items: number[] }, number>('/versions?deployable=true', (r) => r.items)
    expect(all).toEqual([1, 2, 3, 4, 5])
    expect(asked.map((path) => new URL(path, 'http://x').searchParams.get('page'))).toEqual(['1', '2', '3'])
  })

  it('knows a missing Worker by 10007 and by 10090, as wrangler does', () => {
    expect([10007, 10090, 10000, undefined].map(workerNotFound)).toEqual([true, true, false, false])
  })
})

describe('migrations drop and rename nothing without saying why (docs/operations/rollback.md)', () => {
  it('refuses a new migration that drops or renames a table or a column', () => {
    for (const [sql, what] of [
      ['ALTER TABLE enquiries DROP COLUMN owner;', 'drops a column'],
      ['DROP TABLE IF EXISTS notices;', 'drops a table'],
      ['ALTER TABLE notices RENAME TO mails;', 'renames a table'],
      ['ALTER TABLE enquiries RENAME COLUMN owner TO assignee;', 'renames a column'],
    ]) {
      expect(destructiveChanges('0099_x.sql', sql as string)[0]).toContain(`0099_x.sql ${what}`)
    }
  })

  it('passes one that carries the marker line, and one that only mentions a drop in a comment', () => {
    expect(destructiveChanges('0099_x.sql', '-- destructive: notices moved to mails\nDROP TABLE notices;')).toEqual([])
    expect(
      destructiveChanges('0099_x.sql', '-- never DROP TABLE here\nALTER TABLE enquiries ADD COLUMN x TEXT;'),
    ).toEqual([])
    expect(destructiveChanges('0099_x.sql', '-- destructive:\nDROP TABLE notices;')).toHaveLength(1)
  })

  it('judges the new migrations only: those main has ran already', () => {
    const base = new Map([['0001_a.sql', 'DROP TABLE old;']])
    expect(migrationProblems(base, new Map([...base, ['0002_b.sql', 'ALTER TABLE a ADD COLUMN b TEXT;']]))).toEqual([])
    expect(migrationProblems(base, new Map([...base, ['0002_b.sql', 'ALTER TABLE a DROP b;']]))).toHaveLength(1)
  })
})
