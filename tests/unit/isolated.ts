/**
 * The unit tests that get a module graph and a DOM of their own (vitest.config.ts): those that mock
 * a module, stub a global or the environment, or fake the clock. The others share their worker's.
 * tests/unit/isolated.test.ts fails when a file that does one of these is missing here.
 */
export const ISOLATED_FILES = [
  'contact-email.test.ts',
  'contact-form-fields.test.tsx',
  'contact-form-sending.test.tsx',
  'contact-form-turnstile.test.tsx',
  'delivery-choice.test.ts',
  'delivery-lease.test.ts',
  'enquiry-gate.test.ts',
  'enquiry-logs.test.ts',
  'enquiry-once.test.ts',
  'enquiry-retries.test.ts',
  'enquiry-storing.test.ts',
  'fetch-later.test.ts',
  'held-enquiries.test.ts',
  'field-registry-ledger.test.ts',
  'field-registry.test.tsx',
  'icon.test.tsx',
  'ops-platform.test.ts',
  'enquiry-source-ledger.test.ts',
  'motion-gate.test.ts',
  'notices-ledger.test.ts',
  'preload-recovery.test.ts',
  'rate-limit-ledger.test.ts',
  'server-fn-adapter.test.ts',
  'turnstile.test.ts',
]

/** What makes a file need a module graph of its own. */
export const NEEDS_ISOLATION =
  /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers|resetModules)\b|process\.env\.\w+\s*=[^=]/
