import { createSerializationAdapter } from '@tanstack/react-router'
import { TSS_SERVER_FUNCTION } from '@tanstack/react-start'

/** Start's server-function adapter with its RPC client loaded on the first call: Start's imports it on every
 * page, though only the form and the desk call one (vite.config.ts swaps it in; upstream TanStack/router#8392). */
export type RevivedServerFn = ((...args: unknown[]) => Promise<unknown>) & {
  url: string
  serverFnMeta: { id: string }
  [TSS_SERVER_FUNCTION]: boolean
}

/** A server function named in dehydrated data, as `createClientRpc` makes it, its client loaded on the first call. */
export function lazyClientRpc(functionId: string): RevivedServerFn {
  const call = (...args: unknown[]) =>
    import('@tanstack/react-start/client-rpc').then(({ createClientRpc }) => createClientRpc(functionId)(...args))
  return Object.assign(call, {
    url: process.env.TSS_SERVER_FN_BASE + functionId,
    serverFnMeta: { id: functionId },
    [TSS_SERVER_FUNCTION]: true,
  })
}

export const ServerFunctionSerializationAdapter = createSerializationAdapter({
  key: '$TSS/serverfn',
  test: (value): value is RevivedServerFn =>
    typeof value === 'function' && TSS_SERVER_FUNCTION in value && !!value[TSS_SERVER_FUNCTION],
  toSerializable: ({ serverFnMeta }) => ({ functionId: serverFnMeta.id }),
  fromSerializable: ({ functionId }) => lazyClientRpc(functionId),
})
