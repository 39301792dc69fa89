import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Icon } from '~/components/Icon'
import { IconTile } from '~/components/sections/IconTile'
import { SocialIcon } from '~/components/sections/SocialIcon'
import { buttonStyles } from '~/components/sections/styles'
import { contactPage, socialLinks } from '~/content/contact'
import type { Accent, IconName } from '~/content/types'
import { site } from '~/site'

function InfoCard({
  icon,
  colour,
  label,
  hint,
  children,
}: {
  icon: IconName
  colour: Accent
  label: string
  hint: string
  children: ReactNode
}) {
  return (
    <li className="glass flex items-start gap-4 p-5">
      <IconTile icon={icon} colour={colour} />
      <div className="min-w-0">
        <h3 className="text-sm font-semibold tracking-wide text-subtle uppercase">{label}</h3>
        {/* `anywhere`, not `break-word`: it lets the column itself narrow (a long address no longer
            widens the page at 320 px) before the value breaks. */}
        <p className="mt-1 text-lg font-semibold wrap-anywhere text-fg">{children}</p>
        <p className="text-sm text-muted">{hint}</p>
      </div>
    </li>
  )
}

const valueLink = 'inline-flex min-h-11 items-center underline-offset-4 hover:text-brand-300 hover:underline sm:min-h-0'

/** The right-hand column of the contact page: contact details, social links and the product promo. */
export function ContactAside() {
  const { info, follow, promo } = contactPage
  const [mailbox, domain] = site.email.split('@')
  return (
    <aside aria-label="Other ways to reach us" className="space-y-10">
      <section aria-labelledby="contact-information-title">
        <h2 id="contact-information-title" className="text-h3 font-semibold text-fg">
          {info.title}
        </h2>
        <ul className="mt-5 space-y-4">
          <InfoCard icon="mail" colour="cyan" label={info.email.label} hint={info.email.hint}>
            <a href={`mailto:${site.email}`} className={valueLink}>
              {/* On a narrow screen the address breaks after its @, not in the middle of a name. The
                  span keeps the link's name whole: in a flex box, <wbr> adds a space to it. */}
              <span>
                {mailbox}@<wbr />
                {domain}
              </span>
            </a>
          </InfoCard>
          <InfoCard icon="phone" colour="violet" label={info.phone.label} hint={info.phone.hint}>
            <a href={`tel:${site.phoneE164}`} className={valueLink}>
              {site.phone}
            </a>
          </InfoCard>
          <InfoCard icon="map-pin" colour="emerald" label={info.location.label} hint={info.location.hint}>
            {site.location.display}
          </InfoCard>
        </ul>
      </section>

      <section aria-labelledby="follow-us-title">
        <h2 id="follow-us-title" className="text-h3 font-semibold text-fg">
          {follow.title}
        </h2>
        <ul className="mt-5 flex flex-wrap gap-3">
          {socialLinks.map((social) => (
            <li key={social.network}>
              <a
                href={social.href}
                rel="noopener noreferrer"
                aria-label={`${site.name} on ${social.label}`}
                className="inline-flex size-12 items-center justify-center rounded-xl border border-line bg-ink-800/70 text-muted transition-colors hover:border-brand-400 hover:text-fg"
              >
                <SocialIcon network={social.network} className="size-6" />
              </a>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="promo-title" className="glass relative overflow-hidden p-6 sm:p-8">
        <div aria-hidden="true" className="absolute -top-20 -right-20 size-56 rounded-full bg-violet-500/25 blur-3xl" />
        <div className="relative">
          <h2 id="promo-title" className="text-h3 font-semibold text-fg">
            {promo.title}
          </h2>
          <p className="mt-3 text-muted">{promo.text}</p>
          <Link to="/coming-soon" className={`mt-6 ${buttonStyles.primary}`}>
            {promo.label}
            <Icon name="arrow-right" className="size-5 shrink-0" />
          </Link>
        </div>
      </section>
    </aside>
  )
}
