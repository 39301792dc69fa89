/**
 * A throwaway certificate authority for the stand-in's edge, made with openssl at start: clients
 * trust it through NODE_EXTRA_CA_CERTS (Node) or the file `caFile` names.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const OPENSSL = process.env.OPENSSL ?? '/usr/bin/openssl'
const EC_KEY = '-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes'

export interface CertificateAuthority {
  caFile: string
  caPem: string
  /** A key and certificate for these DNS names (wildcards allowed), signed by the CA. */
  issue(names: string[]): { key: string; cert: string }
}

/** Runs openssl with `args` (space-separated words) and then `more` (words that may hold spaces). */
function openssl(cwd: string, args: string, ...more: string[]) {
  execFileSync(OPENSSL, [...args.split(' '), ...more], { cwd, stdio: ['ignore', 'ignore', 'pipe'] })
}

export function createAuthority(dir: string): CertificateAuthority {
  mkdirSync(dir, { recursive: true })
  openssl(
    dir,
    `req -x509 ${EC_KEY} -days 7 -keyout ca.key -out ca.pem -addext basicConstraints=critical,CA:TRUE`,
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-subj',
    '/CN=Stand-in Cloudflare edge test CA',
  )
  const caFile = join(dir, 'ca.pem')
  let serial = 0
  return {
    caFile,
    caPem: readFileSync(caFile, 'utf8'),
    issue(names) {
      const base = `leaf-${++serial}`
      const san = `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`
      const ext = [
        'basicConstraints=CA:FALSE',
        'keyUsage=critical,digitalSignature',
        'extendedKeyUsage=serverAuth',
        san,
      ]
      writeFileSync(join(dir, `${base}.ext`), `${ext.join('\n')}\n`)
      openssl(dir, `req -new ${EC_KEY} -keyout ${base}.key -out ${base}.csr`, '-subj', `/CN=${names[0]}`)
      openssl(
        dir,
        `x509 -req -in ${base}.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 7 -extfile ${base}.ext`,
        '-out',
        `${base}.pem`,
      )
      return {
        key: readFileSync(join(dir, `${base}.key`), 'utf8'),
        cert: readFileSync(join(dir, `${base}.pem`), 'utf8'),
      }
    },
  }
}
