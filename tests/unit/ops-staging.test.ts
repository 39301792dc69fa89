// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { stagingDelivery } from '../../scripts/ci/staging'
import { readWranglerConfig } from '../../scripts/ops-config'

const config = readWranglerConfig('wrangler.toml')
const withDelivery = (delivery: string) => ({ ...config, vars: { ...config.vars, CONTACT_DELIVERY: delivery } })

describe('staging delivers the way production is configured (docs/operations/staging.md)', () => {
  it('form-service: production’s endpoint and staging’s own key, in the secrets file', () => {
    const how = stagingDelivery(config, { STAGING_CONTACT_FORM_ACCESS_KEY: 'staging-key' })
    expect(how).toMatchObject({
      delivery: 'form-service',
      vars: ['CONTACT_DELIVERY:form-service', `CONTACT_FORM_ENDPOINT:${config.vars.CONTACT_FORM_ENDPOINT}`],
      secrets: ['CONTACT_FORM_ACCESS_KEY=staging-key'],
    })
    expect(how.refusal).toBeUndefined()
    expect(stagingDelivery(config, {}).refusal).toMatch(/^STAGING_CONTACT_FORM_ACCESS_KEY is not set/)
  })

  it('email: production’s send_email binding and staging’s own sender; no key', () => {
    const how = stagingDelivery(withDelivery('email'), {
      STAGING_CONTACT_EMAIL_FROM: 'staging@notify.company.in',
      STAGING_CONTACT_FORM_ACCESS_KEY: 'unused',
    })
    expect(how).toMatchObject({
      delivery: 'email',
      vars: ['CONTACT_DELIVERY:email', 'CONTACT_EMAIL_FROM:staging@notify.company.in'],
      secrets: [],
      sendEmail: config.send_email,
    })
    expect(stagingDelivery(withDelivery('email'), {}).refusal).toMatch(/^STAGING_CONTACT_EMAIL_FROM is not set/)
  })

  it('none: stores only, needs nothing; an unknown delivery is refused', () => {
    expect(stagingDelivery(withDelivery('none'), {})).toEqual({
      delivery: 'none',
      vars: ['CONTACT_DELIVERY:none'],
      secrets: [],
    })
    expect(stagingDelivery(withDelivery('fax'), {}).refusal).toContain('"fax"')
  })
})
