/** The e-mail's two link pages, and where their buttons post (the leave one is also the one-click `List-Unsubscribe` URL, RFC 8058). */
export const CONFIRM_PATH = '/early-access/confirm'
export const LEAVE_PATH = '/early-access/leave'
export const CONFIRM_POST_PATH = '/api/early-access/confirm'
export const LEAVE_POST_PATH = '/api/early-access/leave'
