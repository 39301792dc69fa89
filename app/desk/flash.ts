import { TRIAGE_FLASHES } from './triage'

/** After an action, in the address it sends the browser to (`?flash=<code>`): only these codes are shown, never text from the address. */
export const FLASHES = {
  handled: { tone: 'success', text: 'Marked handled. It will not be delivered again.' },
  'already-handled': { tone: 'info', text: 'It was already marked handled.' },
  delivered: { tone: 'success', text: 'Delivered now.' },
  'retry-failed': { tone: 'danger', text: 'The delivery attempt failed; see the history below for the cause.' },
  'not-configured': {
    tone: 'danger',
    text: 'Nothing was attempted: no delivery is in effect (see the delivery set-up on the desk page). It stays pending.',
  },
  'not-retried': { tone: 'info', text: 'Delivered and handled enquiries are not sent again.' },
  'not-held': { tone: 'info', text: 'It is not held, so there is nothing to release.' },
  busy: { tone: 'info', text: 'Another delivery attempt is under way; look again in a minute.' },
  erased: { tone: 'success', text: 'The enquiry and its delivery history were erased.' },
  'already-erased': { tone: 'info', text: 'It was already erased.' },
  'confirm-erase': { tone: 'info', text: 'Confirm the erasure.' },
  'status-stale': {
    tone: 'info',
    text: 'Nothing was done: its delivery status had changed since your page showed it. Here it is as it is now.',
  },
  'held-erased': { tone: 'success', text: 'The held enquiries were erased, with their delivery history.' },
  'held-none': { tone: 'info', text: 'There were no held enquiries to erase.' },
  'person-erased': {
    tone: 'success',
    text: 'Their enquiries and delivery history, and their early access entry, were erased, and each webhook endpoint that had one is told (enquiry.erased, subscriber.erased). Copies in the company mailbox and the form service are not touched.',
  },
  'person-none': { tone: 'info', text: 'There was nothing of theirs to erase.' },
  replayed: { tone: 'success', text: 'The webhook was sent again and its endpoint took it.' },
  'replay-failed': {
    tone: 'danger',
    text: 'The webhook was sent again and failed; see its attempts below. It is retried on schedule.',
  },
  ...TRIAGE_FLASHES,
} as const satisfies Record<string, { tone: 'success' | 'info' | 'danger'; text: string }>

export type Flash = keyof typeof FLASHES

export function isFlash(value: unknown): value is Flash {
  return typeof value === 'string' && Object.hasOwn(FLASHES, value)
}
