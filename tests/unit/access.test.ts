// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessConfig, verifyAccess, verifyAccessToken } from '../../app/desk/access.server'
import { isDeskPath } from '../../app/desk/paths'
import { type AccessKeyServer, startAccessKeys, TEST_OPERATOR, TEST_OPERATOR_ID } from '../support/access-keys'

const refused = (reason: string) => ({ ok: false, reason })
const OPERATOR = { ok: true, email: TEST_OPERATOR, id: TEST_OPERATOR_ID }
let keys: AccessKeyServer
beforeAll(async () => {
  keys = await startAccessKeys()
})
afterAll(() => keys.close())

describe('the Access token check', () => {
  it('lets only a fully valid token in', async () => {
    const env = keys.vars()
    const cases: [string, string | null, string][] = [
      ['no header', null, 'no_token'],
      ['garbage', 'not-a-jwt', 'invalid_token'],
      ['three parts of garbage', 'aaa.bbb.ccc', 'invalid_token'],
      ['a wrong signature', await keys.sign({ foreignKey: true }), 'invalid_token'],
      ['the wrong audience', await keys.sign({ aud: 'another-application' }), 'invalid_token'],
      ['the wrong issuer', await keys.sign({ iss: 'https://evil.cloudflareaccess.com' }), 'invalid_token'],
      ['expired', await keys.sign({ expiresIn: -60 }), 'invalid_token'],
      ['not yet valid', await keys.sign({ notBeforeIn: 600 }), 'invalid_token'],
      ['no e-mail', await keys.sign({ email: null }), 'no_email'],
      ['no user ID (sub)', await keys.sign({ sub: null }), 'no_subject'],
      ['an empty user ID, as a service token has', await keys.sign({ sub: '' }), 'no_subject'],
    ]
    for (const [name, token, reason] of cases) {
      expect(await verifyAccessToken(token, env), name).toEqual(refused(reason))
    }
    // An unsigned token ("alg": "none") claiming to be the operator.
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
    const valid = await keys.sign()
    const body = valid.split('.')[1]
    expect(await verifyAccessToken(`${header}.${body}.`, env)).toEqual(refused('invalid_token'))
    // A valid token's claims with another signature part.
    const [h, p] = valid.split('.')
    const forged = await keys.sign({ foreignKey: true })
    expect(await verifyAccessToken(`${h}.${p}.${forged.split('.')[2]}`, env)).toMatchObject({ ok: false })

    expect(await verifyAccessToken(valid, env)).toEqual(OPERATOR)
    const request = new Request('http://localhost/admin', { headers: { 'Cf-Access-Jwt-Assertion': valid } })
    expect(await verifyAccess(request, env)).toEqual(OPERATOR)
  })

  it('with an allow-list, only the listed e-mail addresses pass (case aside)', async () => {
    const env = keys.vars({ ACCESS_ALLOWED_EMAILS: ' someone@aksharalabs.in , Operator@AksharaLabs.in ' })
    expect(await verifyAccessToken(await keys.sign(), env)).toEqual(OPERATOR)
    expect(await verifyAccessToken(await keys.sign({ email: 'intruder@example.com' }), env)).toEqual(
      refused('not_allowed'),
    )
  })

  it('fails closed without configuration, with a certs address off this machine, or with the keys unreachable', async () => {
    const token = await keys.sign()
    expect(await verifyAccessToken(token, {})).toEqual(refused('not_configured'))
    for (const half of [{ ACCESS_AUD: ' ' }, { ACCESS_TEAM_DOMAIN: '' }, { ACCESS_TEAM_DOMAIN: 'evil.example/path?x' }])
      expect(await verifyAccessToken(token, { ...keys.vars(), ...half })).toEqual(refused('not_configured'))
    const offMachine = ['https://evil.example/cdn-cgi/access/certs', 'http://10.0.0.1/certs', 'file:///etc/passwd']
    for (const url of [...offMachine, 'http://127.0.0.1.evil.example/certs', 'not a url'])
      expect(await verifyAccessToken(token, keys.vars({ ACCESS_CERTS_URL: url })), url).toEqual(
        refused('bad_certs_url'),
      )
    const unreachable = keys.vars({ ACCESS_CERTS_URL: 'http://127.0.0.1:9/certs' })
    expect(await verifyAccessToken(token, unreachable)).toEqual(refused('keys_unavailable'))
  })

  it('without an override, the keys come from the team domain over https', () => {
    const config = accessConfig({ ACCESS_TEAM_DOMAIN: 'https://Example.cloudflareaccess.com/', ACCESS_AUD: 'aud' })
    expect(config).toMatchObject({
      issuer: 'https://example.cloudflareaccess.com',
      audience: 'aud',
      allowedEmails: null,
    })
    expect('certsUrl' in config && config.certsUrl.href).toBe(
      'https://example.cloudflareaccess.com/cdn-cgi/access/certs',
    )
  })

  it('the keys are fetched once and kept, not once per request', async () => {
    const env = keys.vars()
    const before = keys.fetches()
    for (let i = 0; i < 5; i++) expect((await verifyAccessToken(await keys.sign(), env)).ok).toBe(true)
    expect(keys.fetches() - before).toBeLessThanOrEqual(1)
  })
})

describe('the desk paths', () => {
  it('covers /admin and everything under it, however it is spelled', () => {
    const desk = ['/admin', '/admin/', '/admin/enquiries/x', '/ADMIN', '/Admin/export.csv', '/%61dmin', '//admin/x']
    for (const path of desk) expect(isDeskPath(path), path).toBe(true)
    for (const path of ['/', '/contact', '/administrator-guide', '/api/admin'])
      expect(isDeskPath(path), path).toBe(false)
  })
})
