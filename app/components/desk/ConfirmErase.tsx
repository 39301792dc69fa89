import type { ReactNode } from 'react'
import type { DeskActionName } from '~/desk'
import { PageHero } from '../sections/PageHero'
import { ActionForm, dangerButtonStyle, linkStyle } from './desk-ui'

/**
 * Every erasure's confirmation page: what goes, one *Erase permanently* button that posts the
 * action with what the page showed, and the way back. `erase` null: nothing to erase.
 */
export function ConfirmErase({
  back,
  backLabel,
  eyebrow,
  title,
  lead,
  erase,
  children,
}: {
  back: string
  backLabel: string
  eyebrow: string
  title: string
  lead: ReactNode
  erase: { action: DeskActionName; id: string; fields: Record<string, string> } | null
  /** What goes, listed between the words and the button. */
  children?: ReactNode
}) {
  return (
    <>
      <PageHero
        breadcrumb={
          <p>
            <a href={back} className={linkStyle}>
              {backLabel}
            </a>
          </p>
        }
        eyebrow={eyebrow}
        title={title}
        lead={lead}
      />
      {children}
      <div className="container-page mt-8 flex flex-wrap items-center gap-6">
        {erase ? (
          <ActionForm action={erase.action} id={erase.id} extra={erase.fields}>
            <button type="submit" className={dangerButtonStyle}>
              Erase permanently
            </button>
          </ActionForm>
        ) : null}
        <a href={back} className={linkStyle}>
          Cancel
        </a>
      </div>
    </>
  )
}
