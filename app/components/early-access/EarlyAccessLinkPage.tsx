import { PageHero } from '~/components/sections/PageHero'
import { buttonStyles } from '~/components/sections/styles'
import { CONFIRM_POST_PATH, LEAVE_PATH, LEAVE_POST_PATH, type LinkSearch } from '~/notices'
import { site } from '~/site'

const linkStyle = 'font-medium text-brand-300 underline underline-offset-4'
const writeToUs = 'or write to us.'

/** The e-mail's two links: Confirm (signed for 7 days) and Leave. Each GET only shows (mail scanners open links); its button's POST acts. */
const STEPS = {
  confirm: {
    ask: {
      title: 'Confirm your address?',
      lead: `Press Confirm to receive news of ${site.product.name}’s early access and of our other products in development. You can leave the list at any time, in one press.`,
      button: 'Confirm',
      action: CONFIRM_POST_PATH,
      fields: ['id', 'until', 'sig'],
    },
    shown: {
      confirmed: [
        'You are on the list',
        `Thank you. We will write to you about ${site.product.name}’s early access and our other launches, and about nothing else.`,
      ],
      already: ['Already confirmed', 'This address is already on the list. Nothing was changed.'],
      left: [
        'This address has left the list',
        'Nothing was changed. To hear from us again, sign up on the products page: we will send a new link.',
      ],
      gone: [
        'Nothing to confirm',
        'This signup is no longer in our records. To hear about launches, sign up again on the products page.',
      ],
      invalid: [
        'This link does not work',
        'Nothing was changed. The link may be incomplete: copy the whole link from the e-mail.',
      ],
      expired: [
        'This link has expired',
        'Nothing was changed. Sign up again on the products page and we will send a new link.',
      ],
      error: ['Something went wrong', 'Nothing was changed. Please try again in a few minutes.'],
    },
  },
  leave: {
    ask: {
      title: 'Leave the list?',
      lead: 'Press Leave and we will send nothing more about launches to this address.',
      button: 'Leave',
      action: LEAVE_POST_PATH,
      fields: ['id', 'sig'],
    },
    shown: {
      left: ['You have left the list', 'We will send you nothing more about launches.'],
      already: ['Already left', 'This address has already left the list. Nothing was changed.'],
      gone: ['Not on the list', 'This address is not on our list: there is nothing to leave.'],
      invalid: [
        'This link does not work',
        `Nothing was changed. The link may be incomplete: copy the whole link from the e-mail, ${writeToUs}`,
      ],
      error: ['Something went wrong', `Nothing was changed. Please try again in a few minutes, ${writeToUs}`],
    },
  },
} as const

export type EarlyAccessStep = keyof typeof STEPS

export interface EarlyAccessLinkPageProps {
  step: EarlyAccessStep
  search: LinkSearch
  state: string
}

export function EarlyAccessLinkPage({ step, search, state }: EarlyAccessLinkPageProps) {
  const { ask, shown } = STEPS[step]
  if (state === step) {
    return (
      <PageHero eyebrow="Early access updates" title={ask.title} lead={<p>{ask.lead}</p>}>
        <form method="post" action={ask.action}>
          {ask.fields.map((name) => (
            <input key={name} type="hidden" name={name} value={search[name] ?? ''} />
          ))}
          <button type="submit" className={buttonStyles.primary}>
            {ask.button}
          </button>
        </form>
      </PageHero>
    )
  }
  // `result` comes from the address: only a word of the table is shown, anything else as invalid.
  const [title, lead] = (Object.hasOwn(shown, state) ? shown[state as keyof typeof shown] : undefined) ?? shown.invalid
  const onList = step === 'confirm' && (state === 'confirmed' || state === 'already')
  return (
    <PageHero
      eyebrow="Early access updates"
      title={title}
      lead={
        <>
          <p>
            {lead}
            {lead.endsWith(writeToUs) ? (
              <>
                {' '}
                <a href={`mailto:${site.email}`} className={linkStyle}>
                  {site.email}
                </a>
              </>
            ) : null}
          </p>
          {onList && search.id && search.sig ? (
            <p className="mt-4">
              Changed your mind?{' '}
              <a
                href={`${LEAVE_PATH}?${new URLSearchParams({ id: search.id, sig: search.sig })}`}
                className={linkStyle}
              >
                Leave the list
              </a>
            </p>
          ) : step === 'confirm' && !onList ? (
            <p className="mt-4">
              <a href="/products" className={linkStyle}>
                Go to the products page
              </a>
            </p>
          ) : null}
        </>
      }
    />
  )
}
