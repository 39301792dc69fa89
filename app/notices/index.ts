/** The notices' door for pages: the withdraw page's data, and the set-up's lines the desk shows. */

export { loadConfirmPage, loadLeavePage } from './early-access.functions'
export type { NoticeSetupLine } from './setup'
export { loadWithdrawal } from './withdraw.functions'
