// A rollback by hand from GitHub (.github/workflows/rollback.yml; docs/operations.md, "Rollback"):
//
//   node scripts/ci/rollback.ts --message <why> [--version <version id>]
//
// Without --version, the version `wrangler rollback` picks (the last one deployed at 100% before
// the current deployment). Then checks that it alone serves, at 100%, and passes the smoke test on
// `url` in app/site.ts, and says which version stopped serving. Needs CLOUDFLARE_API_TOKEN and
// CLOUDFLARE_ACCOUNT_ID.
import { parseArgs } from 'node:util'
import { fail, summary } from './lib.ts'
import { rollBackTo } from './production.ts'
import { describeServing, type Serving, servingNow } from './versions.ts'

async function main() {
  const { values } = parseArgs({ options: { version: { type: 'string' }, message: { type: 'string' } } })
  const message = values.message?.trim()
  if (!message) fail('say why with --message')
  const version = values.version?.trim() || undefined
  if (version && !/^[0-9a-f-]{8,64}$/i.test(version)) fail(`--version is a version id, not ${version}`)
  let before: Serving
  try {
    before = await servingNow()
  } catch (error) {
    fail((error as Error).message)
  }
  if (before.state === 'none') fail(`Nothing to roll back: ${before.reason}.`)
  console.log(`Serving now: ${describeServing(before)}`)
  const back = await rollBackTo(version, message.slice(0, 100), before.main)
  if (!back.ok) fail(`The rollback did not complete: ${back.report}`)
  const said = `Rolled back: ${back.report}. ${before.main} no longer serves; it stays the latest upload until the next deploy, so change a secret as docs/operations.md, "Rotate the form key", says after a rollback.`
  console.log(said)
  summary(said)
}

if (import.meta.main) await main()
