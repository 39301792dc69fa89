import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * Runs the operator's `npm run enquiries -- <args>` as written (it reads the local database
 * through wrangler), and returns its exit code and output, whatever the code.
 */
export function enquiriesCommand(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return enquiriesCommandWith({}, ...args)
}

/** The same, with `env` over the test's environment (git's configuration, say). */
export async function enquiriesCommandWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'enquiries', '--', ...args], {
      env: { ...process.env, ...env },
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    }
  }
}
