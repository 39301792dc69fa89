/**
 * What GitHub delivers to the workflows: the events a drill raises, which workflows' `on:` match
 * (types, `branches` filters, the `workflows` a `workflow_run` follows), the `github` context each
 * run gets, and what `concurrency` groups do with queued jobs
 * (https://docs.github.com/en/actions/using-jobs/using-concurrency).
 */
import { interpolate, type Value } from './expressions'

// biome-ignore lint/suspicious/noExplicitAny: workflow YAML.
export type Yaml = any

/** A branch filter (`branches:`), with GitHub's `*` (no slash) and `**` patterns. */
export function branchMatches(patterns: string[] | undefined, branch: string): boolean {
  if (!patterns) return true
  return patterns.some((pattern) => {
    const source = pattern
      .split('**')
      .map((part) =>
        part
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('.*')
    return new RegExp(`^${source}$`).test(branch)
  })
}

/** The events a drill raises: what GitHub would deliver to the workflows. */
export type GitHubEvent =
  | {
      name: 'pull_request_target' | 'pull_request'
      action: 'opened' | 'synchronize' | 'reopened' | 'closed'
      number: number
      /** The branch it would merge into. */
      base: string
      head: string
      headSha: string
      author?: string
    }
  | {
      name: 'workflow_run'
      /** The `name:` of the workflow whose run completed. */
      workflow: string
      runId: string
      conclusion?: string
      event: 'push' | 'workflow_dispatch' | 'pull_request'
      headBranch: string
      headSha: string
      pullRequest?: number
      actor?: string
    }

export function triggers(workflow: Yaml): Record<string, Yaml> {
  const on = workflow?.on ?? workflow?.true
  if (typeof on === 'string') return { [on]: {} }
  if (Array.isArray(on)) return Object.fromEntries(on.map((t) => [t, {}]))
  return on ?? {}
}

export function eventContext(
  event: GitHubEvent,
  on: Record<string, Yaml>,
  head: string,
  repository: string,
): Record<string, Value> | undefined {
  const filter = on[event.name]
  if (filter === undefined) return undefined
  if (event.name === 'workflow_run') {
    const config = filter ?? {}
    if (!(config.workflows ?? []).includes(event.workflow)) return undefined
    if (config.types && !config.types.includes('completed')) return undefined
    if (!branchMatches(config.branches, event.headBranch)) return undefined
    return {
      event_name: 'workflow_run',
      ref: 'refs/heads/main',
      sha: head,
      actor: event.actor ?? 'operator',
      event: {
        workflow_run: {
          id: event.runId,
          name: event.workflow,
          conclusion: event.conclusion ?? 'success',
          event: event.event,
          head_branch: event.headBranch,
          head_sha: event.headSha,
          head_repository: { full_name: repository },
          actor: { login: event.actor ?? 'operator' },
          pull_requests: event.pullRequest ? [{ number: event.pullRequest }] : [],
        },
      },
    }
  }
  const config = filter ?? {}
  const types: string[] = config.types ?? ['opened', 'synchronize', 'reopened']
  if (!types.includes(event.action)) return undefined
  if (!branchMatches(config.branches, event.base)) return undefined
  return {
    event_name: event.name,
    // pull_request_target runs on the base branch; pull_request on the merge ref.
    ref: event.name === 'pull_request_target' ? `refs/heads/${event.base}` : `refs/pull/${event.number}/merge`,
    sha: event.name === 'pull_request_target' ? head : event.headSha,
    actor: event.author ?? 'author',
    event: {
      action: event.action,
      pull_request: {
        number: event.number,
        head: { repo: { full_name: repository }, ref: event.head, sha: event.headSha },
        base: { ref: event.base },
        user: { login: event.author ?? 'author' },
      },
    },
  }
}

/**
 * What GitHub does with jobs queued in the order given, while the first runs: each job's group (its
 * own, else its workflow's) admits one running and one waiting; a newer one waiting cancels the
 * older, or cancels the running one with `cancel-in-progress`.
 */
export function concurrencyOutcome(
  queue: { workflow: string; job: string; github: Record<string, Value> }[],
  workflowOf: (file: string, sha: string) => Yaml,
  vars: Record<string, string>,
): string[] {
  const outcome: string[] = []
  const running = new Map<string, number>()
  const waiting = new Map<string, number>()
  queue.forEach((entry, index) => {
    const workflow: Yaml = workflowOf(entry.workflow, String(entry.github.sha ?? ''))
    const spec = workflow.jobs?.[entry.job]?.concurrency ?? workflow.concurrency
    if (spec === undefined) {
      outcome[index] = 'running'
      return
    }
    const contexts = { github: entry.github, inputs: {}, vars: vars }
    const group = interpolate(typeof spec === 'string' ? spec : String(spec.group), contexts, { success: true })
    const cancelInProgress =
      typeof spec === 'object' &&
      String(interpolate(String(spec['cancel-in-progress'] ?? false), contexts, { success: true })) === 'true'
    if (!running.has(group)) {
      running.set(group, index)
      outcome[index] = 'running'
      return
    }
    if (cancelInProgress) {
      outcome[running.get(group) as number] = 'cancelled'
      running.set(group, index)
      outcome[index] = 'running'
      return
    }
    if (waiting.has(group)) outcome[waiting.get(group) as number] = 'cancelled'
    waiting.set(group, index)
    outcome[index] = 'waiting'
  })
  return outcome
}
