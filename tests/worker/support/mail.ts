/** The e-mails the `send_email` binding stores, read as a mail client shows them. */

export interface Mail {
  from: string
  to: string
  replyTo: string
  subject: string
  text: string
  raw: string
}

const decodeWords = (value: string) =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'))

/** A message as the local binding stores it (one text part, base64), read as a mail client shows it. */
export function readMail(raw: string): Mail {
  const [head = '', body = ''] = raw.split('\r\n\r\n')
  const header = (name: string) =>
    decodeWords((head.match(new RegExp(`^${name}: (.*(?:\\r\\n .*)*)`, 'mi'))?.[1] ?? '').replace(/\r\n /g, ' '))
  return {
    from: header('From'),
    to: header('To'),
    replyTo: header('Reply-To'),
    subject: header('Subject'),
    text: Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8').replace(/\r\n/g, '\n'),
    raw,
  }
}

/** The link to `path` a message's text holds, with its query. */
export const linkIn = (mail: Mail | undefined, path: string) =>
  new URL(mail?.text.match(new RegExp(`https?://\\S+${path}\\?\\S+`))?.[0] ?? 'http://missing/')
