// `npm run deploy` is the first deploy only (docs/operations/first-deploy.md, step 5). Once the Worker
// serves, every deploy goes through CI: a push to main (staging, the migration check, the
// version-checked smoke test and the automatic rollback, a version named `main <sha>`), or, when
// staging cannot be waited for, the emergency deploy (Actions → CI → Run workflow on main). A
// deploy from a working copy would skip all of that, so this refuses it.
//
//   node scripts/deploy-first.ts      (run by `npm run deploy` after the go-live check)
//
// What serves is read with `wrangler deployments status --json` (the operator's own login or
// token). "Nothing serves" only when Cloudflare says the Worker does not exist or has no
// deployment; a failure to ask refuses too.
import { describeServing, servingNow } from './ci/versions.ts'

let now: Awaited<ReturnType<typeof servingNow>>
try {
  now = await servingNow('wrangler')
} catch (error) {
  console.error(
    `npm run deploy: cannot tell whether production serves already, so refusing: ${(error as Error).message}`,
  )
  process.exit(1)
}
if (now.state === 'serving') {
  console.error(
    [
      `npm run deploy: refusing. Production already serves ${describeServing(now)}.`,
      '`npm run deploy` is the first deploy only. Every later deploy goes through CI: merge to main, and',
      'Deploy runs staging, then production (docs/operations/github-setup.md, "What a push to main does").',
      'When a fix cannot wait for staging: the emergency deploy, Actions → CI → Run workflow on main,',
      'with a reason (docs/operations/github-setup.md, "Emergency deploy").',
    ].join('\n'),
  )
  process.exit(1)
}
console.log(`npm run deploy: nothing serves yet (${now.reason}): the first deploy.`)
