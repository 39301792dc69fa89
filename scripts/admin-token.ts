// `npm run admin-token`: opens the operator's desk (/admin) on a local server, without a Cloudflare
// Access team. It starts a stand-in Access key server on 127.0.0.1, prints the variables the local
// site needs to trust it and a signed token, and keeps serving the keys until stopped (Ctrl-C).
//   --email <address>   the operator the token names (default operator@aksharalabs.in)
//   --hours <n>         how long the token is valid (default 8)
//   --port <n>          the key server's port (default 8790)
// The site's address it prints follows PORT, as `npm start` does (default http://localhost:8787).
// In production the token comes from Cloudflare Access itself: see docs/desk.md.
import { parseArgs } from 'node:util'
import { startAccessKeys, TEST_OPERATOR } from '../tests/support/access-keys.ts'

const { values } = parseArgs({
  options: {
    email: { type: 'string', default: TEST_OPERATOR },
    hours: { type: 'string', default: '8' },
    port: { type: 'string', default: '8790' },
  },
})
const hours = Number(values.hours)
const port = Number(values.port)
if (!Number.isFinite(hours) || hours <= 0 || hours > 24 * 7) {
  console.error('--hours is a number of hours, up to a week.')
  process.exit(2)
}
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error('--port is a port number.')
  process.exit(2)
}

const keys = await startAccessKeys(port)
const token = await keys.sign({ email: values.email, expiresIn: Math.round(hours * 3600) })
const site = `http://localhost:${process.env.PORT || '8787'}`
const vars = Object.entries(keys.vars())
  .map(([name, value]) => `${name}=${value}`)
  .join('\n')

console.log(`A stand-in Access key server is running at ${keys.certsUrl} (stop it with Ctrl-C).

1. Put these lines in .dev.vars (the local site then trusts this key server only), and start the site
   with \`npm start\` (or restart it):

${vars}

2. Open the desk with this token, valid for ${hours} h, for ${values.email}:

${token}

   From a terminal:
     curl -H "Cf-Access-Jwt-Assertion: <token>" ${site}/admin

   In a browser: a header-editing extension (e.g. ModHeader) that adds the request header
   Cf-Access-Jwt-Assertion with the token to ${site}/*, then open
   ${site}/admin.

The keys are made afresh each time this runs: after a restart, get a new token (and restart the
site, which keeps the old keys for up to 10 minutes).`)
