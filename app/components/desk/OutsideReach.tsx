/** The copies outside the site, which a request by person cannot reach. */
export function OutsideReach() {
  return (
    <p
      className="mt-6 rounded-xl border border-line-strong bg-ink-950/60 px-4 py-3 text-muted"
      data-testid="outside-reach"
    >
      Outside the site’s reach: copies already delivered to the company mailbox, and those kept by the form service.
      Find and delete those there by hand. The tools connected by webhook are told of each erasure (enquiry.erased), and
      erase their copy themselves.
    </p>
  )
}
