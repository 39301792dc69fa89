/**
 * A throwaway certificate authority for the stand-in's edge, made with openssl at start: clients
 * trust it through NODE_EXTRA_CA_CERTS (Node) or the file `caFile` names.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const OPENSSL = process.env.OPENSSL ?? '/usr/bin/openssl'

export interface CertificateAuthority {
  caFile: string
  caPem: string
  /** A key and certificate for these DNS names (wildcards allowed), signed by the CA. */
  issue(names: string[]): { key: string; cert: string }
}

function openssl(args: string[], cwd: string) {
  execFileSync(OPENSSL, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] })
}

export function createAuthority(dir: string): CertificateAuthority {
  mkdirSync(dir, { recursive: true })
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '7',
      '-subj',
      '/CN=Stand-in Cloudflare edge test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
    ],
    dir,
  )
  const caFile = join(dir, 'ca.pem')
  let serial = 0
  return {
    caFile,
    caPem: readFileSync(caFile, 'utf8'),
    issue(names) {
      const base = `leaf-${++serial}`
      writeFileSync(
        join(dir, `${base}.ext`),
        [
          'basicConstraints=CA:FALSE',
          'keyUsage=critical,digitalSignature',
          'extendedKeyUsage=serverAuth',
          `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
          '',
        ].join('\n'),
      )
      openssl(
        [
          'req',
          '-new',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-subj',
          `/CN=${names[0]}`,
          '-keyout',
          `${base}.key`,
          '-out',
          `${base}.csr`,
        ],
        dir,
      )
      openssl(
        [
          'x509',
          '-req',
          '-in',
          `${base}.csr`,
          '-CA',
          'ca.pem',
          '-CAkey',
          'ca.key',
          '-CAcreateserial',
          '-days',
          '7',
          '-extfile',
          `${base}.ext`,
          '-out',
          `${base}.pem`,
        ],
        dir,
      )
      return {
        key: readFileSync(join(dir, `${base}.key`), 'utf8'),
        cert: readFileSync(join(dir, `${base}.pem`), 'utf8'),
      }
    },
  }
}
