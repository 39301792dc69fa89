import { type MockInstance, vi } from 'vitest'

/** Silences the console for a test and keeps what was printed, for assertions on log lines. */
export function captureConsole(): { spies: MockInstance[]; lines(): string[] } {
  const spies = (['info', 'log', 'warn', 'error', 'debug'] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation(() => {}),
  )
  return { spies, lines: () => spies.flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(' '))) }
}
