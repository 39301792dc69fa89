/** Identity (whoami, memberships), the workers.dev subdomain and the one GraphQL query `d1 info` makes. */
import { ApiError, parseJson } from '../http.ts'
import { A, route } from './routes.ts'

route('GET', '/client/v4/user', ({ ctx }) => ({
  id: 'stand-in-user',
  email: ctx.account.options.email,
  first_name: 'Stand-in',
  last_name: 'Operator',
  username: 'stand-in',
  two_factor_authentication_enabled: true,
  suspended: false,
}))
route('GET', '/client/v4/user/tokens/verify', () => ({ id: 'stand-in-token', status: 'active' }))
route('GET', '/client/v4/memberships', ({ ctx }) => [
  {
    id: 'stand-in-membership',
    status: 'accepted',
    account: { id: ctx.account.options.accountId, name: ctx.account.options.accountName },
    roles: ['Administrator'],
    permissions: {},
  },
])
route('GET', '/client/v4/accounts', ({ ctx }) => [
  { id: ctx.account.options.accountId, name: ctx.account.options.accountName, type: 'standard', settings: {} },
])

// `d1 info` asks the GraphQL analytics API for the last day's query counts. The stand-in keeps no
// analytics: it answers that one query, with no rows (wrangler then shows zeros); any other
// GraphQL operation is unknown.
route('POST', '/client/v4/graphql', ({ body }) => {
  const request = parseJson<{ operationName?: string }>(body)
  if (request.operationName !== 'getD1MetricsOverviewQuery') {
    throw new ApiError(404, 7003, `The stand-in does not serve the GraphQL operation ${request.operationName}`)
  }
  return {
    status: 200,
    raw: true,
    body: { data: { viewer: { accounts: [{ d1AnalyticsAdaptiveGroups: [] }] } }, errors: null },
  }
})

// ── workers.dev subdomain ───────────────────────────────────────────────────────────────────

route('GET', `${A}/workers/subdomain`, ({ ctx }) => {
  if (!ctx.account.options.subdomain) throw new ApiError(404, 10007, 'This account has no workers.dev subdomain')
  return { subdomain: ctx.account.options.subdomain }
})
