import { TRIAGE_NOTICES } from './triage'

/** The inbox's actions, and the notices an action leaves for the page it returns to. */
export const ADMIN_ACTIONS = ['handled', 'retry', 'release', 'erase'] as const
export type AdminAction = (typeof ADMIN_ACTIONS)[number]
/** Actions on many held enquiries at once (no `id`): all of them, or one day's or one reason's. */
export const HELD_ACTIONS = ['erase-held'] as const

/** What the page says after an action; only these codes are shown, never text from the address. */
export const NOTICES = {
  handled: { tone: 'success', text: 'Marked handled. It will not be delivered again.' },
  'already-handled': { tone: 'info', text: 'It was already marked handled.' },
  delivered: { tone: 'success', text: 'Delivered now.' },
  'retry-failed': { tone: 'danger', text: 'The delivery attempt failed; see the history below for the cause.' },
  'not-configured': {
    tone: 'danger',
    text: 'Nothing was attempted: no delivery is in effect (see the delivery set-up on the inbox page). It stays pending.',
  },
  'not-retried': { tone: 'info', text: 'Delivered and handled enquiries are not sent again.' },
  'not-held': { tone: 'info', text: 'It is not held, so there is nothing to release.' },
  busy: { tone: 'info', text: 'Another delivery attempt is under way; look again in a minute.' },
  erased: { tone: 'success', text: 'The enquiry and its delivery history were erased.' },
  'already-erased': { tone: 'info', text: 'It was already erased.' },
  'confirm-erase': { tone: 'info', text: 'Confirm the erasure.' },
  'held-erased': { tone: 'success', text: 'The held enquiries were erased, with their delivery history.' },
  'held-none': { tone: 'info', text: 'There were no held enquiries to erase.' },
  'person-erased': {
    tone: 'success',
    text: 'Their enquiries and delivery history were erased. Copies in the company mailbox and the form service are not touched.',
  },
  'person-none': { tone: 'info', text: 'There was nothing of theirs to erase.' },
  ...TRIAGE_NOTICES,
} as const satisfies Record<string, { tone: 'success' | 'info' | 'danger'; text: string }>

export type Notice = keyof typeof NOTICES

export function isNotice(value: unknown): value is Notice {
  return typeof value === 'string' && Object.hasOwn(NOTICES, value)
}
