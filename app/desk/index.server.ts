/**
 * The desk's door for the server: the middleware's gate and the desk's server routes. Who may act
 * is `operator.server.ts`; every action goes through `actions.server.ts`.
 */

export { handleDeskAction } from './actions.server'
export { handleExport } from './csv-export.server'
export { operatorFor } from './operator.server'
export { handlePersonExport } from './person.server'
