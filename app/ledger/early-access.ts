/** An early-access entry's states and moves, as plain functions; no code imports: the products page's first load carries it. */

import type { FieldRule } from './fields'

/** The entry's one field, declared as the enquiry's are (`fields.ts`): the panel's form, its check, its column. */
export const EARLY_ACCESS_FIELDS = {
  email: {
    label: 'Email address',
    heading: 'Email',
    csv: 'E-mail',
    column: 'email',
    kind: 'email',
    required: true,
    max: 254,
    autoComplete: 'email',
    width: 'full',
    messages: {
      required: 'Please enter your email address.',
      invalid: 'Please enter a valid email address, like name@example.com.',
      tooLong: 'Email addresses can be at most 254 characters.',
    },
  },
} as const satisfies Record<string, FieldRule>

export const EARLY_ACCESS_STATES = ['pending', 'confirmed', 'left'] as const
export type EarlyAccessState = (typeof EARLY_ACCESS_STATES)[number]

/** A pending entry not confirmed within these days is deleted by the cron, as its link expires. */
export const PENDING_DAYS = 7
/** A departure is kept this long (the desk counts it; a replayed link says "already"), then deleted. */
export const LEFT_DAYS = 30

export const isEarlyAccessState = (value: unknown): value is EarlyAccessState =>
  typeof value === 'string' && (EARLY_ACCESS_STATES as readonly string[]).includes(value)

/** One entry per address: trimmed and lower-cased. */
export const addressKey = (email: string): string => email.trim().toLowerCase()

/** A new or departed address starts a fresh pending entry (a new id: old links stay dead); a confirmed one gets no mail. */
export type SignupMove = { state: 'pending'; send: true; fresh: boolean } | { state: 'confirmed'; send: false }

export function signupMove(current: EarlyAccessState | null): SignupMove {
  if (current === 'confirmed') return { state: 'confirmed', send: false }
  return { state: 'pending', send: true, fresh: current !== 'pending' }
}

/** What pressing Confirm does: only a pending entry changes. */
export type ConfirmAnswer = 'confirmed' | 'already' | 'left' | 'gone'

export function confirmMove(current: EarlyAccessState | null): { answer: ConfirmAnswer; change: boolean } {
  if (current === 'pending') return { answer: 'confirmed', change: true }
  if (current === 'confirmed') return { answer: 'already', change: false }
  return { answer: current === 'left' ? 'left' : 'gone', change: false }
}

/** What pressing Leave does: a pending or confirmed entry leaves; anything else is already out. */
export type LeaveAnswer = 'left' | 'already' | 'gone'

export function leaveMove(current: EarlyAccessState | null): { answer: LeaveAnswer; change: boolean } {
  if (current === 'pending' || current === 'confirmed') return { answer: 'left', change: true }
  return { answer: current === 'left' ? 'already' : 'gone', change: false }
}
