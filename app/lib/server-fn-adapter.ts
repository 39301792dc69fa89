import { createSerializationAdapter } from '@tanstack/react-router'
import { TSS_SERVER_FUNCTION } from '@tanstack/react-start'

/**
 * Start's serialization adapter for server functions, with its RPC client loaded when a revived
 * server function is first called instead of with the client entry.
 *
 * Start's client entry (`hydrateStart`, start-client-core/dist/esm/client) registers
 * `ServerFunctionSerializationAdapter`, which imports `createClientRpc` statically, and with it
 * the fetcher, its frame decoder and seroval: ≈ 12 KB gzip that every page loaded before its first
 * interaction, though only the contact form and the desk call a server function, from chunks of
 * their own that import the RPC client themselves. This module is that adapter (same key, same
 * test, same serialized form, a revived function with the same properties), and `vite.config.ts`
 * (`lazyServerFnClient`) puts it in place of Start's in the client build; the build fails if
 * Start's module is not where it was. tests/unit/server-fn-adapter.test.ts compares the two.
 * Upstream, TanStack/router#8392 (open) takes the RPC client out of this adapter in the same spirit.
 */
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
