import { createFileRoute } from '@tanstack/react-router'
import { buttonStyle, linkStyle } from '~/components/desk/desk-ui'
import { PageHero } from '~/components/sections/PageHero'
import { confirmTarget, deskEffect } from '~/desk'
import { deskHead, searchText } from '~/desk/head'

/** A desk GET with an effect from elsewhere lands here; its button navigates from the desk, so it passes. */
export const Route = createFileRoute('/admin/confirm')({
  validateSearch: (search: Record<string, unknown>) => searchText(search, 'to'),
  head: () => deskHead('Go on?'),
  component: ConfirmPage,
})

function ConfirmPage() {
  const { to } = Route.useSearch()
  const target = confirmTarget(to)
  const effect = target ? deskEffect(target) : null
  return (
    <>
      <PageHero
        eyebrow="From outside the desk"
        title={target ? 'Go on?' : 'Nothing to go on to'}
        lead={
          <p>
            This address was opened from outside the desk: a link or a redirect on another website, or a browser that
            does not say where a request came from. Nothing was done.
          </p>
        }
      />
      <div className="container-page mt-10 flex flex-col items-start gap-6">
        {target && effect ? (
          <>
            <p className="text-fg" data-testid="confirm-effect">
              {effect}
            </p>
            <form method="get" action={target.pathname}>
              {[...target.searchParams].map(([name, value]) => (
                <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
              ))}
              <button type="submit" className={buttonStyle}>
                Go on
              </button>
            </form>
          </>
        ) : null}
        <a href="/admin" className={linkStyle}>
          Back to the desk
        </a>
      </div>
    </>
  )
}
