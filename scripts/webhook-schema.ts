// `npm run schema:webhooks`: writes docs/webhook-payload.schema.json from the enquiry's fields
// (app/ledger/fields.ts), formatted as the linter keeps JSON. Run it after changing a field. The
// file is written only when it changes, and whole: the linter may be reading it meanwhile.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import './app-modules.ts'

const { webhookPayloadSchema } = await import('../app/contact/webhook-schema.ts')
const file = fileURLToPath(new URL('../docs/webhook-payload.schema.json', import.meta.url))
const biome = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url))
const formatted = spawnSync(biome, ['format', `--stdin-file-path=${file}`], {
  input: `${JSON.stringify(webhookPayloadSchema(), null, 2)}\n`,
  encoding: 'utf8',
})
if (formatted.status !== 0) {
  process.stderr.write(formatted.stderr)
  process.exit(formatted.status ?? 1)
}
if (existsSync(file) && readFileSync(file, 'utf8') === formatted.stdout) {
  console.log('docs/webhook-payload.schema.json is up to date')
} else {
  writeFileSync(file, formatted.stdout)
  console.log('Wrote docs/webhook-payload.schema.json')
}
