import { createServerFn } from '@tanstack/react-start'
import { workerEnv } from '~/server/runtime.server'
import { confirmPageState, leavePageState } from './early-access.server'
import { earlyAccessFields } from './early-access-link'

export const loadConfirmPage = createServerFn({ method: 'GET' })
  .validator((input: unknown) => earlyAccessFields((input ?? {}) as Record<string, unknown>))
  .handler(async ({ data }) => confirmPageState(await workerEnv(), data))

export const loadLeavePage = createServerFn({ method: 'GET' })
  .validator((input: unknown) => earlyAccessFields((input ?? {}) as Record<string, unknown>))
  .handler(async ({ data }) => leavePageState(await workerEnv(), data))
