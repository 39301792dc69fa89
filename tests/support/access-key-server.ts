// The end-to-end suite's stand-in Access key server, started by playwright.config.ts: it serves the
// public keys on 127.0.0.1 (ACCESS_KEYS_PORT) and writes its signing keys to ACCESS_KEY_FILE, so
// the tests can sign tokens that the shared site accepts (`accessKeysFrom` in access-keys.ts).
import { startAccessKeys } from './access-keys.ts'

const port = Number(process.env.ACCESS_KEYS_PORT)
const keyFile = process.env.ACCESS_KEY_FILE
if (!Number.isInteger(port) || port <= 0 || !keyFile) {
  console.error('ACCESS_KEYS_PORT and ACCESS_KEY_FILE are required.')
  process.exit(2)
}
const keys = await startAccessKeys(port, { keyFile })
console.log(`Stand-in Access keys at ${keys.certsUrl}`)
