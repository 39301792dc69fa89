import { errorCause, log, requestIdFor } from '~/server/log.server'
import type { WorkerEnv } from '~/server/runtime.server'
import { recordAudit } from './audit.server'
import { ADMIN_HEADERS, forbidden, operatorFor } from './inbox.server'
import { parsePersonEmail, personEnquiries, personExport } from './person.server'

/**
 * `GET /admin/person/export.json?email=…`: everything the database holds about one address, as one
 * JSON file to download. The audit lines (one per enquiry) are written first; if they cannot be,
 * nothing is exported (503).
 */
export async function handlePersonExport(request: Request, env: WorkerEnv): Promise<Response> {
  const operator = await operatorFor(request, env)
  if (!operator) return forbidden()
  const email = parsePersonEmail(new URL(request.url).searchParams.get('email'))
  const text = (status: number, message: string) =>
    new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...ADMIN_HEADERS } })
  if (!email) return text(400, 'No valid e-mail address.')
  try {
    const ids = (await personEnquiries(env.ENQUIRIES, email)).map((row) => row.id)
    await recordAudit(env.ENQUIRIES, {
      operator: operator.email,
      action: 'person-export',
      enquiryIds: ids,
      detail: `on request, ${ids.length} enquir${ids.length === 1 ? 'y' : 'ies'}`,
    })
    const data = await personExport(env.ENQUIRIES, email)
    log('info', {
      event: 'admin',
      requestId: requestIdFor(request),
      action: 'export-person',
      operator: operator.id,
      enquiries: data.enquiries.length,
    })
    const day = data.exportedAt.slice(0, 10)
    return new Response(`${JSON.stringify(data, null, 2)}\n`, {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="person-export-${day}.json"`,
        ...ADMIN_HEADERS,
      },
    })
  } catch (error) {
    log('error', {
      event: 'admin_error',
      requestId: requestIdFor(request),
      action: 'export-person',
      cause: errorCause(error),
    })
    return text(503, 'The enquiry database did not answer. Try again.')
  }
}
