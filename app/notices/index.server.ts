/** The notices' door for the server: the mail room, the notices, the receipt's withdrawal. */

export { enquirySubject, enquiryText, replyToVisitor } from './enquiry-mail'
export { type EmailMessageConstructor, type MailOutcome, sendEmail, senderAddress, toCompany } from './mail.server'
export { buildPlainTextEmail, isPlainAddress, type PlainTextEmail } from './message'
export { runNotices, sendGiveUpNotice, sendReceipt } from './notices.server'
export { type NoticeSetupLine, type NoticesSetup, noticesSetup, noticesSetupLines } from './setup'
export { handleWithdrawPost } from './withdraw-post.server'
