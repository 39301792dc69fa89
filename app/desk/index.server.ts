/** The desk's door for the server: the middleware's gate and the desk's server routes. */

export { handleDeskAction } from './actions.server'
export { handleExport } from './csv-export.server'
export { handleEarlyAccessExport } from './early-access.server'
export { confirmPath, deskEffect, fromTheDesk } from './navigation'
export { operatorFor } from './operator.server'
export { handlePersonExport } from './person.server'
