import { createServerFn } from '@tanstack/react-start'
import { workerEnv } from '~/server/runtime.server'
import { withdrawState } from './notices.server'
import { linkFields } from './receipt-link'

export const loadWithdrawal = createServerFn({ method: 'GET' })
  .validator((input: unknown) => linkFields((input ?? {}) as Record<string, unknown>))
  .handler(async ({ data }) => withdrawState(await workerEnv(), data))
