/**
 * The stand-ins every drill shares, in one process of their own: the stand-in Cloudflare
 * (tests/support/cloudflare/cloud.ts, an account for each drill) and the stand-in GitHub API (a
 * repository for each drill). Started once by the drills' global set-up (global-setup.ts), which
 * passes their addresses to every drill file; a drill makes its own account and repository, so
 * drills run side by side without seeing each other's data.
 *
 *   node tests/drills/support/standin.ts   prints {"cloudflare": "http://127.0.0.1:…", "github": "…"}, then serves until stopped
 */
import { rmSync } from 'node:fs'
import { startCloud } from '../../support/cloudflare/cloud.ts'
import { startGitHubServer } from './github.ts'

export interface StandinAddresses {
  cloudflare: string
  github: string
  /** The account holding the first deploy every drill may start from (control.adopt). */
  template: string
}

if (import.meta.main) {
  const cloud = await startCloud()
  const github = await startGitHubServer()
  console.log(JSON.stringify({ cloudflare: cloud.apiBase, github: github.url }))
  // Miniflare ends the process itself on SIGTERM (its exit hook, after stopping its workerd), before
  // cloud.stop() below can finish: the stand-ins' folder goes on the way out, whichever ends it.
  process.on('exit', () => rmSync(cloud.dir, { recursive: true, force: true }))
  const stop = () => {
    Promise.allSettled([cloud.stop(), github.close()]).finally(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  // The parent (the test runner) going away ends the stand-ins too.
  process.stdin.resume()
  process.stdin.on('end', stop)
}
