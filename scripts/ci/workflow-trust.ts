// The trust rules of .github/workflows/ (docs/operations/github-setup.md): no job that runs a
// pull request's code holds a secret. Checked by `npm run lint` (scripts/lint-workflows.ts) and by
// tests/unit/ops-workflows.test.ts, which also proves each rule fails on a bad workflow.
//
//  1. Secrets only on steps: no workflow- or job-level `env` names a secret, so nothing a job runs
//     before or after the step that needs a token (an install script, a build) can read it.
//  2. A workflow a pull request triggers (`pull_request…`: GitHub runs the pull request's own copy
//     of it) names no secret and no environment, and asks for no write permission.
//  3. A workflow that runs with the default branch's privileges for a pull request
//     (`pull_request_target`, `workflow_run`) never runs the pull request's code where it holds a
//     secret: it checks out no ref from the event, except a `workflow_run` job that only runs for
//     pushes (or manual runs) on main of this repository; and an artifact from the triggering run
//     lands outside the workspace (under runner.temp, where it cannot replace the scripts) and, when
//     that run was a pull request's, is checked (`node scripts/ci/preview.ts check`) before any
//     step that holds a secret.
//  4. A job that holds a secret installs with `npm ci --ignore-scripts` (no package's install
//     script runs there), and checks out with `persist-credentials: false`.
import { parse } from 'yaml'

// biome-ignore lint/suspicious/noExplicitAny: workflow YAML, read field by field below.
type Node = any

const PR_TRIGGERS = ['pull_request', 'pull_request_review', 'pull_request_review_comment']
const PRIVILEGED_TRIGGERS = ['pull_request_target', 'workflow_run']
const TOKEN_ONLY = new Set(['GITHUB_TOKEN'])

/** The secrets a value names (`secrets.X`, `secrets['X']`; a bare `secrets` is all of them). */
export function secretsIn(value: unknown): string[] {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '')
  const names = new Set<string>()
  for (const m of text.matchAll(/\$\{\{([^}]*)\}\}/g)) {
    const expression = m[1] ?? ''
    for (const s of expression.matchAll(/\bsecrets(?:\.([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])?/g)) {
      const name = s[1] ?? s[2] ?? '*'
      if (!TOKEN_ONLY.has(name)) names.add(name)
    }
  }
  return [...names]
}

function triggers(workflow: Node): string[] {
  const on = workflow?.on ?? workflow?.true // YAML 1.1 reads a bare `on` as true
  if (typeof on === 'string') return [on]
  if (Array.isArray(on)) return on
  return on && typeof on === 'object' ? Object.keys(on) : []
}

const isCheckout = (step: Node) => typeof step?.uses === 'string' && step.uses.startsWith('actions/checkout@')
const isDownload = (step: Node) => typeof step?.uses === 'string' && step.uses.startsWith('actions/download-artifact@')

/** The secrets one step names (its env, its `with`, its script, its condition). */
function stepSecrets(step: Node): string[] {
  return secretsIn([step?.env, step?.with, step?.run, step?.if])
}

/** True when a `workflow_run` job runs only for pushes or manual runs on main of this repository. */
function onlyMainRuns(workflow: Node, job: Node): boolean {
  const condition = String(job?.if ?? '')
  const branches = workflow?.on?.workflow_run?.branches
  return (
    Array.isArray(branches) &&
    branches.length === 1 &&
    branches[0] === 'main' &&
    /github\.event\.workflow_run\.head_branch\s*==\s*'main'/.test(condition) &&
    /github\.event\.workflow_run\.head_repository\.full_name\s*==\s*github\.repository/.test(condition) &&
    /github\.event\.workflow_run\.event\s*==\s*'(push|workflow_dispatch)'/.test(condition) &&
    !/workflow_run\.event\s*==\s*'pull_request/.test(condition) &&
    !/\|\|\s*true|always\(\)\s*\|\|/.test(condition)
  )
}

/** True when a `workflow_run` job can run for a pull request's run (its artifacts are the pull request's). */
function mayRunForPullRequest(workflow: Node, job: Node): boolean {
  return triggers(workflow).includes('workflow_run') && !onlyMainRuns(workflow, job)
}

const EVENT_REF = /github\.event\.(pull_request|workflow_run|issue|comment)|github\.head_ref|refs\/pull\//

export interface TrustProblem {
  file: string
  job?: string
  message: string
}

/** Every rule broken by one workflow file. */
export function trustProblems(file: string, text: string): TrustProblem[] {
  const problems: TrustProblem[] = []
  const add = (message: string, job?: string) => problems.push({ file, job, message })
  let workflow: Node
  try {
    workflow = parse(text)
  } catch (error) {
    return [{ file, message: `not valid YAML: ${(error as Error).message}` }]
  }
  const on = triggers(workflow)
  const prTriggered = on.some((t) => PR_TRIGGERS.includes(t))
  const privileged = on.some((t) => PRIVILEGED_TRIGGERS.includes(t))

  for (const name of secretsIn(workflow?.env))
    add(`workflow-level env names the secret ${name}: put it on the step that needs it`)

  for (const [id, job] of Object.entries<Node>(workflow?.jobs ?? {})) {
    const steps: Node[] = Array.isArray(job?.steps) ? job.steps : []
    for (const name of secretsIn(job?.env))
      add(`job-level env names the secret ${name}: put it on the step that needs it`, id)
    const jobSecrets = new Set([...secretsIn(job?.env), ...secretsIn(job?.with), ...steps.flatMap(stepSecrets)])
    const holdsSecret = jobSecrets.size > 0 || job?.environment !== undefined || job?.secrets !== undefined

    if (prTriggered) {
      for (const name of jobSecrets) add(`runs the pull request's code and names the secret ${name}`, id)
      if (job?.environment !== undefined)
        add("runs the pull request's code and names an environment (environments hold secrets)", id)
      if (job?.secrets !== undefined) add("runs the pull request's code and passes secrets to a reusable workflow", id)
      const permissions = JSON.stringify([workflow?.permissions, job?.permissions])
      if (/write/.test(permissions)) add("runs the pull request's code with a write permission", id)
    }

    if (!holdsSecret) continue

    const firstSecretStep = steps.findIndex((step) => stepSecrets(step).length > 0)
    steps.forEach((step, index) => {
      const label = `step ${index + 1}${step?.name ? ` (${step.name})` : ''}`
      if (isCheckout(step)) {
        if (step?.with?.['persist-credentials'] !== false)
          add(`${label}: a checkout in a job holding secrets needs persist-credentials: false`, id)
        const ref = JSON.stringify([step?.with?.ref ?? '', step?.with?.repository ?? ''])
        if (
          privileged &&
          EVENT_REF.test(ref) &&
          !(triggers(workflow).includes('workflow_run') && onlyMainRuns(workflow, job))
        ) {
          add(`${label}: checks out the pull request's code in a job holding secrets`, id)
        }
        if (prTriggered) add(`${label}: checks out the pull request's code in a job holding secrets`, id)
      }
      if (typeof step?.run === 'string') {
        for (const line of step.run.split('\n')) {
          if (/\bnpm\s+(ci|install|i)\b/.test(line) && !/--ignore-scripts\b/.test(line)) {
            add(
              `${label}: \`${line.trim()}\` runs install scripts in a job holding secrets: use npm ci --ignore-scripts`,
              id,
            )
          }
          if (privileged && /\bgit\s+(fetch|checkout|switch|pull)\b|\bgh\s+pr\s+checkout\b/.test(line)) {
            add(`${label}: fetches other code with git in a job holding secrets`, id)
          }
        }
      }
      if (isDownload(step) && step?.with?.['run-id'] !== undefined) {
        const path = String(step?.with?.path ?? '')
        if (!/^\$\{\{\s*runner\.temp\s*\}\}\//.test(path)) {
          add(
            `${label}: another run's artifact must be downloaded under \${{ runner.temp }}, never into the checkout`,
            id,
          )
        }
        if (mayRunForPullRequest(workflow, job)) {
          const check = steps.findIndex(
            (s, i) => i > index && typeof s?.run === 'string' && /node scripts\/ci\/preview\.ts check\b/.test(s.run),
          )
          const nextSecret = steps.findIndex((s, i) => i > index && stepSecrets(s).length > 0)
          if (check === -1 || (nextSecret !== -1 && nextSecret < check) || stepSecrets(steps[check]).length > 0) {
            add(
              `${label}: a pull request's build must pass \`node scripts/ci/preview.ts check\` before any step that holds a secret`,
              id,
            )
          }
          if (firstSecretStep !== -1 && firstSecretStep < index) {
            add(`${label}: a pull request's build is downloaded after a step that holds a secret`, id)
          }
        }
      }
    })
  }
  return problems
}
