import { afterAll, beforeAll, beforeEach } from 'vitest'
import { type AccessKeyServer, startAccessKeys } from '../../support/access-keys'
import { type FormService, startFormService } from '../../support/form-service'
import {
  type Siteverify,
  startSiteverify,
  TEST_TURNSTILE_SECRET,
  TEST_TURNSTILE_SITE_KEY,
} from '../../support/turnstile'
import { Site, type SiteOptions } from './site'

/** A made-up key the site holds for the stand-in form service; it must never reach a browser. */
export const TEST_ACCESS_KEY = 'worker-stand-in-key-8e2d41c7a9'

/** The file's Worker, started once with `options` (read once the stand-ins are up); each test starts empty. */
export function siteUnderTest(options: () => SiteOptions = () => ({})): Site {
  let site: Site | undefined
  beforeAll(async () => {
    site = await Site.start(options())
  })
  beforeEach(async () => {
    await site?.reset()
  })
  afterAll(async () => {
    await site?.close()
  })
  return new Proxy({} as Site, {
    get(_, property) {
      if (!site) throw new Error('the Worker has not started')
      const value = Reflect.get(site, property, site)
      return typeof value === 'function' ? value.bind(site) : value
    },
  })
}

/** The file's own stand-ins for what the Worker calls out to, each on a free port, emptied before each test. */
export function standInsForFile() {
  let forms: FormService | undefined
  let keys: AccessKeyServer | undefined
  let siteverify: Siteverify | undefined
  beforeAll(async () => {
    ;[forms, keys, siteverify] = await Promise.all([
      startFormService(0, '127.0.0.1', { plan: 'paid' }),
      startAccessKeys(0),
      startSiteverify(),
    ])
  })
  beforeEach(() => {
    forms?.forget()
    siteverify?.down(false)
  })
  afterAll(async () => {
    await Promise.all([forms?.close(), keys?.close(), siteverify?.close()])
  })
  const need = <T>(value: T | undefined): T => {
    if (!value) throw new Error('the stand-ins have not started')
    return value
  }
  /** The variables of a site configured as in production: the form service with its key, Access on. */
  const production = (extra: Record<string, string> = {}) =>
    need(keys).vars({
      CONTACT_DELIVERY: 'form-service',
      CONTACT_FORM_ENDPOINT: need(forms).url,
      CONTACT_FORM_ACCESS_KEY: TEST_ACCESS_KEY,
      ...extra,
    })
  return {
    get forms() {
      return need(forms)
    },
    get keys() {
      return need(keys)
    },
    get siteverify() {
      return need(siteverify)
    },
    production,
    /** The same with Turnstile on. */
    turnstile: (extra: Record<string, string> = {}) =>
      production({
        TURNSTILE_SITE_KEY: TEST_TURNSTILE_SITE_KEY,
        TURNSTILE_SECRET_KEY: TEST_TURNSTILE_SECRET,
        TURNSTILE_VERIFY_URL: need(siteverify).url,
        ...extra,
      }),
  }
}
