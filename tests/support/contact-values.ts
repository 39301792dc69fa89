/** A complete, valid contact form fill, and the errors the form's schema gives for a fill, by field. */
import { validateContact } from '~/contact/schema'

export const valid = {
  name: 'Ravi Kumar',
  email: 'ravi@example.com',
  company: 'Godavari Foods',
  subject: 'devops',
  message: 'We would like to move our deployments to Kubernetes.',
}

export function errorsFor(values: Record<string, unknown>) {
  const result = validateContact(values)
  return result.success ? {} : result.errors
}
