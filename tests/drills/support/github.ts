/**
 * A stand-in for the part of GitHub's REST API the workflows' scripts call, on 127.0.0.1: a pull
 * request's comments (list, create, edit), as documented at
 * https://docs.github.com/en/rest/issues/comments. Scripts reach it through GITHUB_API_URL, as
 * they reach GitHub in Actions. A call it does not serve answers 404 and is recorded, so the drill
 * can assert there was none.
 */
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
  comments(issue: number): IssueComment[]
  /** A comment by a person (the workflow must leave it alone). */
  addHumanComment(issue: number, body: string): void
  unknown: string[]
  close(): Promise<void>
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

export async function startGitHub(repository = 'aksharalabs/site'): Promise<GitHubStandIn> {
  const token = 'ghs_drill_token'
  const comments: IssueComment[] = []
  const unknown: string[] = []
  let nextId = 1000
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(value))
    }
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { message: 'Bad credentials' })
    const prefix = `/repos/${repository}`
    const list = new RegExp(`^${prefix}/issues/(\\d+)/comments$`).exec(url.pathname)
    const one = new RegExp(`^${prefix}/issues/comments/(\\d+)$`).exec(url.pathname)
    if (list && req.method === 'GET') {
      const perPage = Number(url.searchParams.get('per_page') ?? 30)
      const page = Number(url.searchParams.get('page') ?? 1)
      const all = comments.filter((c) => c.issue === Number(list[1]))
      return send(200, all.slice((page - 1) * perPage, page * perPage))
    }
    if (list && req.method === 'POST') {
      const comment: IssueComment = {
        id: nextId++,
        issue: Number(list[1]),
        body: (JSON.parse(await body(req)) as { body: string }).body,
        user: { login: 'github-actions[bot]', type: 'Bot' },
      }
      comments.push(comment)
      return send(201, comment)
    }
    if (one && req.method === 'PATCH') {
      const comment = comments.find((c) => c.id === Number(one[1]))
      if (!comment) return send(404, { message: 'Not Found' })
      comment.body = (JSON.parse(await body(req)) as { body: string }).body
      return send(200, comment)
    }
    unknown.push(`${req.method} ${url.pathname}`)
    send(404, { message: 'Not Found' })
  })
  // As the stand-in Cloudflare API: never close an idle keep-alive connection under a client.
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    repository,
    comments: (issue) => comments.filter((c) => c.issue === issue),
    addHumanComment(issue, text) {
      comments.push({ id: nextId++, issue, body: text, user: { login: 'reviewer', type: 'User' } })
    },
    unknown,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
