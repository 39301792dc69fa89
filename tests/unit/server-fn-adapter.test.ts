// @vitest-environment node
import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { lazyClientRpc, ServerFunctionSerializationAdapter } from '~/lib/server-fn-adapter'
// Start's own adapter, which the client build replaces (not exported by name: read from its file).
import { ServerFunctionSerializationAdapter as startsAdapter } from '../../node_modules/@tanstack/start-client-core/dist/esm/client/ServerFunctionSerializationAdapter.js'

const calls: unknown[][] = []
vi.mock('@tanstack/react-start/client-rpc', async (importActual) => {
  const actual = await importActual<typeof import('@tanstack/react-start/client-rpc')>()
  return {
    ...actual,
    createClientRpc: (functionId: string) => {
      const real = actual.createClientRpc(functionId)
      return Object.assign(async (...args: unknown[]) => {
        calls.push([functionId, ...args])
        return 'answered'
      }, real)
    },
  }
})

const { createClientRpc } = await vi.importActual<typeof import('@tanstack/react-start/client-rpc')>(
  '@tanstack/react-start/client-rpc',
)

/** What a revived server function exposes: its own keys and symbols, and their values. */
const shape = (fn: object) =>
  Reflect.ownKeys(fn)
    .filter((key) => !['length', 'name', 'prototype'].includes(key as string))
    .map((key) => [String(key), JSON.stringify((fn as Record<PropertyKey, unknown>)[key])])
    .sort()

describe("the client build's server-function adapter is Start's, with its RPC client loaded on the first call", () => {
  it("Start's client entry still imports the adapter the build swaps (vite.config.ts, lazyServerFnClient)", () => {
    const entry = readFileSync('node_modules/@tanstack/start-client-core/dist/esm/client/hydrateStart.js', 'utf8')
    expect(entry).toContain('from "./ServerFunctionSerializationAdapter.js"')
    expect(entry).toContain('serializationAdapters.push(ServerFunctionSerializationAdapter)')
  })

  it('has the same key, recognises the same values and serializes them alike', () => {
    expect(ServerFunctionSerializationAdapter.key).toBe(startsAdapter.key)
    const serverFn = createClientRpc('a1b2c3')
    for (const value of [serverFn, lazyClientRpc('a1b2c3'), () => 1, { serverFnMeta: { id: 'x' } }, 'a1b2c3', null]) {
      expect(ServerFunctionSerializationAdapter.test(value)).toBe(startsAdapter.test(value))
    }
    expect(ServerFunctionSerializationAdapter.test(serverFn)).toBe(true)
    expect(ServerFunctionSerializationAdapter.toSerializable(serverFn)).toEqual(startsAdapter.toSerializable(serverFn))
  })

  it('revives a server function with the properties Start gives it', () => {
    const ours = ServerFunctionSerializationAdapter.fromSerializable({ functionId: 'a1b2c3' })
    const starts = startsAdapter.fromSerializable({ functionId: 'a1b2c3' })
    expect(typeof ours).toBe('function')
    expect(shape(ours)).toEqual(shape(starts))
    expect(shape(ours).map(([key]) => key)).toEqual(['Symbol(TSS_SERVER_FUNCTION)', 'serverFnMeta', 'url'])
  })

  it('loads the RPC client when called, and calls the server function through it', async () => {
    const revived = ServerFunctionSerializationAdapter.fromSerializable({ functionId: 'a1b2c3' })
    await expect(revived({ data: { name: 'Asha' } })).resolves.toBe('answered')
    expect(calls).toEqual([['a1b2c3', { data: { name: 'Asha' } }]])
  })
})
