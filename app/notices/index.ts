/** The notices' door for pages: the withdraw page's data, and the set-up's lines the desk shows. */

export { loadConfirmPage, loadLeavePage } from './early-access.functions'
export { CONFIRM_POST_PATH, LEAVE_PATH, LEAVE_POST_PATH } from './early-access-paths'
export { type LinkSearch, linkSearch } from './early-access-search'
export type { NoticeSetupLine } from './setup'
export { loadWithdrawal } from './withdraw.functions'
