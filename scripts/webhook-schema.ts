// `npm run schema:webhooks`: writes docs/webhook-payload.schema.json from the enquiry's fields
// (app/ledger/fields.ts), formatted as the linter keeps JSON. Run it after changing a field.
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import './app-modules.ts'

const { webhookPayloadSchema } = await import('../app/contact/webhook-schema.ts')
const file = fileURLToPath(new URL('../docs/webhook-payload.schema.json', import.meta.url))
writeFileSync(file, `${JSON.stringify(webhookPayloadSchema(), null, 2)}\n`)
const biome = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url))
const formatted = spawnSync(biome, ['format', '--write', file], { stdio: 'inherit' })
if (formatted.status !== 0) process.exit(formatted.status ?? 1)
console.log('Wrote docs/webhook-payload.schema.json')
