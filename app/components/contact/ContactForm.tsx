import type { Subject } from '~/contact/subjects'

export interface ContactFormProps {
  /** Preselected subject, from `?subject=` on /contact. */
  defaultSubject?: Subject
}

/** Placeholder until the contact form lands. */
export function ContactForm(_props: ContactFormProps) {
  return (
    <div className="glass p-6">
      <h2 className="text-h3 font-semibold">Send us a message</h2>
    </div>
  )
}
