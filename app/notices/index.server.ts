/** The notices' door for the server: the mail room, the notices, the receipt's withdrawal. */

export {
  confirmPageState,
  isSignedLeave,
  leavePageState,
  signUpForEarlyAccess,
} from './early-access.server'
export { CONFIRM_PATH, LEAVE_PATH, LEAVE_POST_PATH } from './early-access-paths'
export { handleConfirmPost, handleLeavePost } from './early-access-post.server'
export { enquirySubject, enquiryText, replyToVisitor } from './enquiry-mail'
export { type EmailMessageConstructor, type MailOutcome, sendEmail, senderAddress, toCompany } from './mail.server'
export { buildPlainTextEmail, isPlainAddress, type PlainTextEmail } from './message'
export { runNotices, sendGiveUpNotice, sendReceipt } from './notices.server'
export {
  earlyAccessSetup,
  type NoticeSetupLine,
  type NoticesSetup,
  noticesSetup,
  noticesSetupLines,
} from './setup'
export { handleWithdrawPost } from './withdraw-post.server'
