// Types for @adobe/structured-data-validator, which ships none: what tests/unit/structured-data.test.ts uses.
declare module '@adobe/structured-data-validator' {
  export interface Issue {
    issueMessage: string
    severity: 'ERROR' | 'WARNING'
    rootType?: string
    fieldNames?: string[]
    path?: unknown[]
  }
  /** Data as @marbec/web-auto-extractor gives it: per format, items grouped by their root type. */
  export interface ExtractedData {
    jsonld?: Record<string, Record<string, unknown>[]>
    microdata?: Record<string, Record<string, unknown>[]>
    rdfa?: Record<string, Record<string, unknown>[]>
  }
  export default class Validator {
    constructor(schemaOrgJson?: unknown)
    debug: boolean
    validate(data: ExtractedData): Promise<Issue[]>
  }
}
