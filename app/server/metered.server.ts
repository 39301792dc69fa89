import type { WorkerEnv } from './runtime.server'

/** Subrequests an invocation spent: each D1 call and each e-mail (Free allows 50: docs/operations/quotas.md). */
export interface Meter {
  used: number
  spend(count?: number): void
}

export function newMeter(): Meter {
  return {
    used: 0,
    spend(count = 1) {
      this.used += count
    },
  }
}

const STATEMENT_CALLS = new Set(['first', 'run', 'all', 'raw'])

export function meteredEnv(env: WorkerEnv, meter: Meter): WorkerEnv {
  const targets = new WeakMap<object, object>()
  const statement = (real: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(real, {
      get(target, key) {
        const value = Reflect.get(target, key, target)
        if (typeof value !== 'function') return value
        if (key === 'bind') return (...args: unknown[]) => statement(Reflect.apply(value, target, args))
        if (typeof key === 'string' && STATEMENT_CALLS.has(key))
          return (...args: unknown[]) => {
            meter.spend()
            return Reflect.apply(value, target, args)
          }
        // Reflect.apply: a binding's method is an RPC stub, which would take `.apply` for a remote method.
        return value.bind(target)
      },
    })
    targets.set(proxy, real)
    return proxy
  }
  const db = env.ENQUIRIES
  const enquiries =
    db &&
    new Proxy(db, {
      get(target, key) {
        const value = Reflect.get(target, key, target)
        if (typeof value !== 'function') return value
        if (key === 'prepare') return (sql: string) => statement(Reflect.apply(value, target, [sql]))
        if (key === 'batch')
          return (statements: D1PreparedStatement[]) => {
            meter.spend()
            return Reflect.apply(value, target, [statements.map((s) => (targets.get(s) ?? s) as D1PreparedStatement)])
          }
        if (key === 'exec')
          return (sql: string) => {
            meter.spend()
            return Reflect.apply(value, target, [sql])
          }
        return value.bind(target)
      },
    })
  const mail = env.CONTACT_EMAIL
  const email =
    mail &&
    new Proxy(mail, {
      get(target, key) {
        const value = Reflect.get(target, key, target)
        if (typeof value !== 'function') return value
        if (key === 'send')
          return (...args: unknown[]) => {
            meter.spend()
            return Reflect.apply(value, target, args)
          }
        return value.bind(target)
      },
    })
  return { ...env, ENQUIRIES: enquiries, CONTACT_EMAIL: email } as WorkerEnv
}
