import type { ProseSection } from './types'

/** The privacy page's words on the list (docs/notices.md, "Early access"). */
export const earlyAccessPrivacySection: ProseSection = {
  title: 'Early access updates',
  paragraphs: [
    `If you ask for early access updates on the products page, we keep your e-mail address, when you asked, when you confirmed and which version of the consent line the form showed you, so that we can write to you about our product launches and show that you agreed to it. We keep no IP address with it. We first send one e-mail with a link to confirm: until you press Confirm on its page, we do not write to you, and an address not confirmed within 7 days is deleted.`,
    'A confirmed address is kept until you leave the list. Every e-mail we send about it has a link to leave in one press (and mail programs that offer an “Unsubscribe” button use the same link). When you leave, we send you nothing more; we keep the address, marked as having left, for 30 days, then delete it. You can also write to us to leave or to have it erased at once.',
    'Once you confirm, the website may pass your address, when you confirmed and the version of the consent line, over an encrypted and signed connection, to the mail tool we send launch news from and to the business tools that keep that list up to date for us (such as an automation service). A notice goes to our team’s chat (Slack, run by Slack Technologies) saying only that someone signed up or left, never your address. When you leave, the website tells each of these tools, so that they stop writing to you; when we erase your address at your request, it tells each tool that had it, so that their copy is erased too.',
  ],
}
