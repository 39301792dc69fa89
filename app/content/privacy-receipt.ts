import type { ProseSection } from './types'

/** The privacy page's words on the receipt and its withdraw link (docs/notices.md). */
export const receiptSection: ProseSection = {
  title: 'The confirmation e-mail and withdrawing an enquiry',
  paragraphs: [
    'When we have stored your enquiry, we may send you one e-mail to confirm it: a reference, when to expect our reply, and a link to withdraw the enquiry. It repeats nothing you wrote except your name, and we send at most one a day to any address. To keep to that limit, we keep a keyed hash of your address, not the address itself, for at most two days.',
    'The link works for 30 days. It shows a page where you can withdraw the enquiry: doing so erases it, with its delivery record, from the website’s database at once. A copy that has already reached our mailbox is deleted on request, as described under “Your rights”.',
  ],
}
