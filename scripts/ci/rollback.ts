// A rollback by hand from GitHub (.github/workflows/rollback.yml; docs/operations/rollback.md):
//
//   node scripts/ci/rollback.ts --message <why> [--version <version id>]
//
// Without --version, the version `wrangler rollback` picks (the last one deployed at 100% before
// the current deployment). Then checks that it alone serves, at 100%, and passes the smoke test on
// `url` in app/site.ts once it answers, and says which version stopped serving and which commit the
// version now serving was built from: its message names it (`main <sha>`), or, for a secret change
// (which names none), the newest version before it does. That is the commit to deploy again before
// changing a secret (docs/operations/key-rotation.md, step 3). Needs CLOUDFLARE_API_TOKEN
// and CLOUDFLARE_ACCOUNT_ID.
import { parseArgs } from 'node:util'
import { fail, summary } from './lib.ts'
import { rollBackTo } from './production.ts'
import { builtFrom, describeServing, listVersions, type Serving, servingNow } from './versions.ts'

async function main() {
  const { values } = parseArgs({ options: { version: { type: 'string' }, message: { type: 'string' } } })
  const message = values.message?.trim()
  if (!message) fail('say why with --message')
  const version = values.version?.trim() || undefined
  if (version && !/^[0-9a-f-]{8,64}$/i.test(version)) fail(`--version is a version id, not ${version}`)
  let before: Serving
  try {
    before = await servingNow('api')
  } catch (error) {
    fail((error as Error).message)
  }
  if (before.state === 'none') fail(`Nothing to roll back: ${before.reason}.`)
  console.log(`Serving now: ${describeServing(before)}`)
  const back = await rollBackTo(version, message.slice(0, 100), before.main)
  if (!back.ok) fail(`The rollback did not complete: ${back.report}`)
  const lines = [
    `Rolled back: ${back.report}. ${before.main} no longer serves; it stays the latest upload until the next deploy, so change a secret as docs/operations/key-rotation.md says after a rollback.`,
  ]
  const found = builtFrom(await listVersions().catch(() => []), back.version as string)
  if (found) {
    lines.push(
      found.from === back.version
        ? `The version serving was built from commit ${found.commit}.`
        : `The version serving is a secret change of ${found.from}, built from commit ${found.commit}.`,
      `To make that code the latest upload: re-run the Deploy run of commit ${found.commit}; if its build artifact has expired (14 days), re-run that commit's CI run instead (runs can be re-run for 30 days); after that, revert the later commits on main and let their Deploy run finish.`,
    )
  } else {
    lines.push(
      'No version in the last ten names the commit the serving version was built from (`main <sha>`): find it in `npx wrangler versions list`.',
    )
  }
  const said = lines.join('\n')
  console.log(said)
  summary(said)
}

if (import.meta.main) await main()
