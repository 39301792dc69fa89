import { site } from '~/site'

/** The contact form's subjects, value → label, in the order the select shows them. */
export const SUBJECTS = [
  { value: 'devops', label: 'DevOps & Cloud Automation' },
  { value: 'website', label: 'AI-Powered Web Solutions' },
  { value: 'automation', label: 'Intelligent Automation' },
  { value: 'voice-ai', label: `${site.product.name} Voice Assistant Inquiry` },
  { value: 'general', label: 'General Inquiry' },
] as const

export type Subject = (typeof SUBJECTS)[number]['value']

export const SUBJECT_VALUES = SUBJECTS.map((s) => s.value) as [Subject, ...Subject[]]

export function isSubject(value: unknown): value is Subject {
  return typeof value === 'string' && (SUBJECT_VALUES as readonly string[]).includes(value)
}

export function subjectLabel(value: Subject): string {
  return SUBJECTS.find((s) => s.value === value)?.label ?? value
}

/** `?subject=` on /contact: a known subject value preselects it; anything else is ignored. */
export function parseSubjectParam(search: Record<string, unknown>): { subject?: Subject } {
  return isSubject(search.subject) ? { subject: search.subject } : {}
}
