import { site } from '~/site'
import type { ProseSection } from './types'

/** A legal page's words; each page's live in a module of its own (privacy.ts, terms.ts), so neither page loads the other's. */
export interface LegalPage {
  title: string
  /** ISO date the text was last changed. */
  updated: string
  intro: string
  sections: readonly ProseSection[]
}

export const companyPlace = `${site.location.locality}, ${site.location.region}, ${site.location.country}`
