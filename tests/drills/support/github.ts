/**
 * A stand-in for the part of GitHub's REST API the workflows' scripts call, on 127.0.0.1: a pull
 * request's comments (list, create, edit: https://docs.github.com/en/rest/issues/comments) and a
 * pull request's state (https://docs.github.com/en/rest/pulls/pulls#get-a-pull-request). Scripts
 * reach it through GITHUB_API_URL, as they reach GitHub in Actions. One server holds a repository
 * for each drill (each with its own token, so no drill sees another's data). A call it does not
 * serve answers 404 and is recorded, so the drill can assert there was none.
 *
 * Its control door (for the drills, not the scripts): POST /__standin/repos makes a repository;
 * /__standin/repos/<owner>/<name>/… reads its comments, adds a person's, opens and closes pull requests.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface IssueComment {
  id: number
  issue: number
  body: string
  user: { login: string; type: 'Bot' | 'User' }
}

export interface GitHubStandIn {
  url: string
  token: string
  repository: string
  comments(issue: number): Promise<IssueComment[]>
  /** A comment by a person (the workflow must leave it alone). */
  addHumanComment(issue: number, body: string): Promise<void>
  /** A pull request as GitHub's API describes it (`GET /repos/…/pulls/<number>`): open or closed. */
  setPullRequest(number: number, state: 'open' | 'closed'): Promise<void>
  /** Calls the stand-in does not serve. */
  unknown(): Promise<string[]>
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => resolve(text))
  })
}

interface Repository {
  token: string
  comments: IssueComment[]
  pulls: Map<number, 'open' | 'closed'>
  unknown: string[]
}

export async function startGitHubServer(): Promise<{ url: string; close(): Promise<void> }> {
  const repositories = new Map<string, Repository>()
  let nextId = 1000
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(value))
    }
    if (url.pathname === '/__standin/repos' && req.method === 'POST') {
      const { repository } = JSON.parse(await body(req)) as { repository: string }
      const repo: Repository = {
        token: `ghs_${randomBytes(12).toString('hex')}`,
        comments: [],
        pulls: new Map(),
        unknown: [],
      }
      repositories.set(repository, repo)
      return send(200, { token: repo.token })
    }
    const control = /^\/__standin\/repos\/([^/]+\/[^/]+)\/(comments|human-comment|unknown|pull)$/.exec(url.pathname)
    if (control) {
      const repo = repositories.get(control[1] as string)
      if (!repo) return send(404, { message: 'no such repository' })
      if (control[2] === 'comments') {
        return send(
          200,
          repo.comments.filter((c) => c.issue === Number(url.searchParams.get('issue'))),
        )
      }
      if (control[2] === 'unknown') return send(200, repo.unknown)
      if (control[2] === 'pull') {
        const { number, state } = JSON.parse(await body(req)) as { number: number; state: 'open' | 'closed' }
        repo.pulls.set(number, state)
        return send(200, {})
      }
      const { issue, text } = JSON.parse(await body(req)) as { issue: number; text: string }
      repo.comments.push({ id: nextId++, issue, body: text, user: { login: 'reviewer', type: 'User' } })
      return send(200, {})
    }
    const name = /^\/repos\/([^/]+\/[^/]+)\//.exec(url.pathname)?.[1]
    const repo = name ? repositories.get(name) : undefined
    if (!repo || req.headers.authorization !== `Bearer ${repo.token}`) return send(401, { message: 'Bad credentials' })
    const prefix = `/repos/${name}`
    const list = new RegExp(`^${prefix}/issues/(\\d+)/comments$`).exec(url.pathname)
    const one = new RegExp(`^${prefix}/issues/comments/(\\d+)$`).exec(url.pathname)
    const pull = new RegExp(`^${prefix}/pulls/(\\d+)$`).exec(url.pathname)
    if (pull && req.method === 'GET') {
      const state = repo.pulls.get(Number(pull[1]))
      return state ? send(200, { number: Number(pull[1]), state }) : send(404, { message: 'Not Found' })
    }
    if (list && req.method === 'GET') {
      const perPage = Number(url.searchParams.get('per_page') ?? 30)
      const page = Number(url.searchParams.get('page') ?? 1)
      const all = repo.comments.filter((c) => c.issue === Number(list[1]))
      return send(200, all.slice((page - 1) * perPage, page * perPage))
    }
    if (list && req.method === 'POST') {
      const comment: IssueComment = {
        id: nextId++,
        issue: Number(list[1]),
        body: (JSON.parse(await body(req)) as { body: string }).body,
        user: { login: 'github-actions[bot]', type: 'Bot' },
      }
      repo.comments.push(comment)
      return send(201, comment)
    }
    if (one && req.method === 'PATCH') {
      const comment = repo.comments.find((c) => c.id === Number(one[1]))
      if (!comment) return send(404, { message: 'Not Found' })
      comment.body = (JSON.parse(await body(req)) as { body: string }).body
      return send(200, comment)
    }
    repo.unknown.push(`${req.method} ${url.pathname}`)
    send(404, { message: 'Not Found' })
  })
  // As the stand-in Cloudflare API: never close an idle keep-alive connection under a client.
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A repository of its own on the shared GitHub stand-in at `url`. */
export async function connectGitHub(url: string, repository: string): Promise<GitHubStandIn> {
  const post = async (path: string, value: unknown) => {
    const answer = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(value) })
    if (!answer.ok) throw new Error(`GitHub stand-in ${path}: ${answer.status}`)
    return answer.json()
  }
  const get = async <T>(path: string) => (await (await fetch(`${url}${path}`)).json()) as T
  const { token } = (await post('/__standin/repos', { repository })) as { token: string }
  return {
    url,
    token,
    repository,
    comments: (issue) => get(`/__standin/repos/${repository}/comments?issue=${issue}`),
    addHumanComment: async (issue, text) => {
      await post(`/__standin/repos/${repository}/human-comment`, { issue, text })
    },
    unknown: () => get(`/__standin/repos/${repository}/unknown`),
    setPullRequest: async (number, state) => {
      await post(`/__standin/repos/${repository}/pull`, { number, state })
    },
  }
}
