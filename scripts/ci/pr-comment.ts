// Keeps one comment on a pull request with its Preview's URL, through GitHub's REST API
// (https://docs.github.com/en/rest/issues/comments): the comment carrying the marker is edited,
// or created when there is none.
//
//   node scripts/ci/pr-comment.ts --pr <number> --url <preview URL> --sha <commit>
//   node scripts/ci/pr-comment.ts --pr <number> --deleted
//
// Needs GITHUB_TOKEN (pull-requests: write), GITHUB_REPOSITORY and GITHUB_API_URL, which GitHub
// Actions sets (https://docs.github.com/en/actions/reference/variables-reference).
import { parseArgs } from 'node:util'
import { fail } from './lib.ts'

export const MARKER = '<!-- worker-preview -->'

interface Comment {
  id: number
  body?: string
  user?: { type?: string; login?: string }
}

function github() {
  const api = process.env.GITHUB_API_URL || 'https://api.github.com'
  const repository = process.env.GITHUB_REPOSITORY
  const token = process.env.GITHUB_TOKEN
  if (!repository || !/^[\w.-]+\/[\w.-]+$/.test(repository)) fail('GITHUB_REPOSITORY (owner/name) is not set')
  if (!token) fail('GITHUB_TOKEN is not set')
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${api}/repos/${repository}${path}`, {
      method,
      headers: {
        Accept: 'application/vnd.github+json',
        Authorization: `Bearer ${token}`,
        'X-GitHub-Api-Version': '2022-11-28',
        'User-Agent': 'akshara-labs-site-ci',
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    })
    if (!response.ok) throw new Error(`GitHub ${method} ${path} answered ${response.status}: ${await response.text()}`)
    return response.json() as Promise<unknown>
  }
}

export function commentBody(options: { url?: string; sha?: string; deleted?: boolean }): string {
  if (options.deleted) return `${MARKER}\n**Preview:** deleted when the pull request closed.`
  return `${MARKER}\n**Preview:** ${options.url}\n\nUpdated for ${options.sha?.slice(0, 7)}.`
}

/** Edits the marked comment made by a bot, or creates it. Returns the comment's id. */
export async function upsertComment(pr: number, body: string): Promise<number> {
  const call = github()
  const mine: Comment[] = []
  for (let page = 1; page <= 50; page++) {
    const comments = (await call('GET', `/issues/${pr}/comments?per_page=100&page=${page}`)) as Comment[]
    mine.push(...comments.filter((c) => c.user?.type === 'Bot' && c.body?.includes(MARKER)))
    if (comments.length < 100) break
  }
  const existing = mine[0]
  if (existing) {
    await call('PATCH', `/issues/comments/${existing.id}`, { body })
    return existing.id
  }
  const created = (await call('POST', `/issues/${pr}/comments`, { body })) as Comment
  return created.id
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      pr: { type: 'string' },
      url: { type: 'string' },
      sha: { type: 'string' },
      deleted: { type: 'boolean', default: false },
    },
  })
  const pr = Number(values.pr)
  if (!Number.isInteger(pr) || pr < 1) fail(`--pr must be a pull request number, not ${JSON.stringify(values.pr)}`)
  if (!values.deleted && !(values.url && /^https:\/\//.test(values.url)))
    fail('give the Preview’s https URL with --url')
  try {
    const id = await upsertComment(pr, commentBody(values))
    console.log(`Comment ${id} on pull request #${pr} is up to date.`)
  } catch (error) {
    fail((error as Error).message)
  }
}
