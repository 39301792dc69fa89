// `npm run outbox`: prints the enquiries kept in the local outbox (the OUTBOX KV namespace that
// `npm start` and `npm run dev` simulate and persist on disk), oldest first.
//   --persist-to <dir>   the state directory the server used (default .wrangler/state, as `npm start`)
//   --json               one JSON object per line instead of readable blocks
// The deployed outbox: `npx wrangler kv key list --binding OUTBOX --remote`, then
// `npx wrangler kv key get --binding OUTBOX --remote "<key>"`.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { formatEnquiry, OUTBOX_PREFIX, type OutboxRecord } from '../app/contact/enquiry.ts'

const { values } = parseArgs({
  options: {
    'persist-to': { type: 'string', default: process.env.PERSIST_TO || '.wrangler/state' },
    json: { type: 'boolean', default: false },
  },
})
const persistTo = values['persist-to'] as string

if (!existsSync(join(persistTo, 'v3'))) {
  console.log(`The local outbox is empty: no local state in ${persistTo} yet (start the site with \`npm start\`).`)
  process.exit(0)
}

// Offline and quiet: no request for Cloudflare's cf.json, no metrics.
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false'
process.env.WRANGLER_SEND_METRICS ??= 'false'
const { getPlatformProxy } = await import('wrangler')
const { env, dispose } = await getPlatformProxy<{ OUTBOX: KVNamespace }>({
  configPath: 'wrangler.toml',
  persist: { path: join(persistTo, 'v3') },
})

try {
  const keys: string[] = []
  let cursor: string | undefined
  do {
    const page = await env.OUTBOX.list({ prefix: OUTBOX_PREFIX, cursor })
    keys.push(...page.keys.map((key) => key.name))
    cursor = page.list_complete ? undefined : page.cursor
  } while (cursor)

  if (keys.length === 0) {
    console.log(`The local outbox (${persistTo}) is empty.`)
  } else {
    if (!values.json)
      console.log(`${keys.length} ${keys.length === 1 ? 'enquiry' : 'enquiries'} in the local outbox (${persistTo}):\n`)
    for (const key of keys) {
      const raw = await env.OUTBOX.get(key)
      if (raw === null) continue
      let record: OutboxRecord
      try {
        record = JSON.parse(raw) as OutboxRecord
      } catch {
        console.log(values.json ? JSON.stringify({ key, raw }) : `${key}: (not JSON) ${raw}`)
        continue
      }
      console.log(values.json ? JSON.stringify({ key, ...record }) : `${formatEnquiry(record, key)}\n`)
    }
  }
} finally {
  await dispose()
}
