/** The confirmation's words: nothing the visitor typed, not even the address (the To line carries it). */

export interface ConfirmationContent {
  siteName: string
  productName: string
  confirmUrl: string
  leaveUrl: string
  linkUntil: Date
}

const longDate = (date: Date) =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

export function confirmationMessage(content: ConfirmationContent): { subject: string; text: string } {
  const text = [
    'Hello,',
    '',
    `Someone, we hope you, asked for early access updates from ${content.siteName} with this address: news of ${content.productName}’s early access and of our other products in development.`,
    '',
    'To confirm, open this link and press Confirm on its page:',
    content.confirmUrl,
    `It works until ${longDate(content.linkUntil)}. If you did not ask, do nothing: we will not write to you, and we delete the address after that date.`,
    '',
    'To leave the list at any time, with one press:',
    content.leaveUrl,
    '',
    `— ${content.siteName}`,
    '',
  ].join('\n')
  return { subject: `Confirm your early access updates — ${content.siteName}`, text }
}
