import type { DeliverySetup } from '~/desk'
import { NoticesSetupRows } from './NoticesSetup'

/** `/admin/setup`: what is in effect, in words; never a secret's value. Other sections go beside it as rows. */
export function SetupPanel({ setup }: { setup: DeliverySetup }) {
  return (
    <section aria-labelledby="setup-title" className="container-page mt-8">
      <div className="glass p-6">
        <h2 id="setup-title" className="text-h3 font-semibold text-fg">
          Delivery
        </h2>
        <dl className="mt-4 grid gap-x-8 gap-y-2 text-muted sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-fg">Delivery in effect</dt>
          <dd data-testid="setup-delivery">{setup.delivery}</dd>
          <dt className="font-medium text-fg">Requested (CONTACT_DELIVERY)</dt>
          <dd data-testid="setup-requested">{setup.requested}</dd>
          <dt className="font-medium text-fg">Missing</dt>
          <dd data-testid="setup-missing">
            {setup.missing.length ? setup.missing.join(', ') : 'nothing: the requested delivery has what it needs'}
          </dd>
          <dt className="font-medium text-fg">Rate limiters</dt>
          <dd data-testid="setup-rate-limiter">
            {setup.rateLimiter ? 'bound' : 'not bound: the enquiry database counts posts instead'}
          </dd>
          <dt className="font-medium text-fg">Turnstile (spam check)</dt>
          <dd data-testid="setup-turnstile">
            {setup.turnstile === 'on'
              ? 'on: enquiries without a valid token are held'
              : setup.turnstile === 'off'
                ? 'off'
                : `off: ${setup.turnstile.missing.join(', ')} is not set`}
          </dd>
          <dt className="font-medium text-fg">Enquiries kept for</dt>
          <dd data-testid="setup-retention">{setup.retentionDays} days, then deleted</dd>
          <dt className="font-medium text-fg">Who may open the desk</dt>
          <dd data-testid="setup-fence">
            {'allowList' in setup.fence
              ? `the ${setup.fence.allowList} address${setup.fence.allowList === 1 ? '' : 'es'} in ACCESS_ALLOWED_EMAILS, once Access lets them in`
              : setup.fence.policyOnly
                ? `anyone the Access policy lets in (ACCESS_POLICY_ONLY_REASON: “${setup.fence.policyOnly}”)`
                : 'anyone the Access policy lets in: no allow-list and no reason written (production refuses this)'}
          </dd>
          <dt className="font-medium text-fg">Held enquiries</dt>
          <dd data-testid="setup-held">
            kept for {setup.heldRetentionDays} days unless released; at most {setup.heldPerHour} from one network and{' '}
            {setup.heldCeilingPerHour} in all from one hour
          </dd>
          <NoticesSetupRows lines={setup.notices} />
        </dl>
      </div>
    </section>
  )
}
