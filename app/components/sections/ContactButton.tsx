import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Icon } from '~/components/Icon'
import type { Subject } from '~/content/subjects'
import { buttonStyles } from './styles'

/** A button-styled link to the contact page, preselecting a subject when one is given. */
export function ContactButton({
  subject,
  variant = 'primary',
  children,
}: {
  subject?: Subject
  variant?: keyof typeof buttonStyles
  children: ReactNode
}) {
  return (
    <Link to="/contact" search={subject ? { subject } : {}} className={buttonStyles[variant]}>
      {children}
      <Icon name="arrow-right" className="size-5 shrink-0" />
    </Link>
  )
}
