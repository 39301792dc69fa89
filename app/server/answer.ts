import { DESK_HEADERS } from './desk-path'

/** A browser's form post gets a 303 to the result's page or a refusal in words; an API call gets JSON (`reply.ts`). */
export type ActionAnswer = { seeOther: string } | { status: number; message: string }

/** `logged`: the fields of the one log line that says what it did (none: it did nothing). */
export interface ActionResult {
  answer: ActionAnswer
  logged?: Record<string, string | number>
}

/** A 307 would make the browser post again. `Set-Cookie` is added once per value, the rest set. */
export function seeOther(location: string, headers: Iterable<[string, string]> = []): Response {
  const answer = new Headers({ Location: location, 'Cache-Control': 'no-store' })
  for (const [name, value] of headers) {
    if (name.toLowerCase() === 'set-cookie') answer.append(name, value)
    else answer.set(name, value)
  }
  return new Response(null, { status: 303, headers: answer })
}

export function answerResponse(answer: ActionAnswer, headers: Readonly<Record<string, string>> = {}): Response {
  if ('seeOther' in answer) return seeOther(answer.seeOther, Object.entries(headers))
  return new Response(answer.message, {
    status: answer.status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers },
  })
}

/** Every refusal of an operator page: the same whoever asks, whatever they asked for. */
export function forbidden(): Response {
  return new Response(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Not allowed</title></head><body><main><h1>Not allowed</h1><p>This page is for the people who run this website, signed in through Cloudflare Access.</p></main></body></html>',
    { status: 403, headers: { 'Content-Type': 'text/html; charset=utf-8', ...DESK_HEADERS } },
  )
}
