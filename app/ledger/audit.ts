export interface AuditLine {
  seq: number
  at: string
  operator: string
  action: string
  enquiryId: string | null
  detail: string
}

/** With whether its enquiry is still stored. */
export interface ActivityLine extends AuditLine {
  enquiryStored: boolean
}
