import { SUBJECT_VALUES } from '~/content/subjects'
import { CONTACT_FIELDS, EARLY_ACCESS_FIELDS, ENQUIRY_FIELDS, type FieldRule } from '~/ledger'
import { WEBHOOK_EVENT_TYPES } from './webhooks'

/** docs/webhook-payload.schema.json from the enquiry's fields (`npm run schema:webhooks`; a test holds it). */

/** A field's value in the payload; its cap is its UTF-8 byte cap where it has one, which bounds the code points. */
function fieldSchema(rule: FieldRule): Record<string, unknown> {
  if (rule.kind === 'choice') return { enum: SUBJECT_VALUES }
  const cap = rule.maxBytes ?? rule.max
  return {
    ...(rule.required ? {} : { description: 'Empty when none was given.' }),
    type: 'string',
    ...(rule.kind === 'email' ? { format: 'email' } : {}),
    ...(rule.required ? { minLength: 1 } : {}),
    ...(cap === undefined ? {} : { maxLength: cap }),
  }
}

function fieldProperties(): Record<string, unknown> {
  return Object.fromEntries(
    CONTACT_FIELDS.flatMap((field) => {
      const rule: FieldRule = ENQUIRY_FIELDS[field]
      const own: [string, unknown] = [field, fieldSchema(rule)]
      return rule.kind === 'choice'
        ? [own, [`${field}Label`, { description: "The subject in the form's words.", type: 'string', maxLength: 100 }]]
        : [own]
    }),
  )
}

export function webhookPayloadSchema(): Record<string, unknown> {
  const properties = {
    id: { $ref: '#/$defs/id' },
    receivedAt: { type: 'string', format: 'date-time' },
    ...fieldProperties(),
    deskUrl: { description: 'The enquiry in the desk (behind Cloudflare Access).', type: 'string', format: 'uri' },
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://aksharalabs.in/docs/webhook-payload.schema.json',
    title: "A webhook event's body",
    description:
      'The JSON body of each signed POST to a webhook endpoint (docs/integrations.md). Headers: webhook-id (the same on every retry and replay of one event), webhook-timestamp (Unix seconds of this attempt), webhook-signature (v1,<base64 HMAC-SHA-256 of "<id>.<timestamp>.<body>">). String caps are the contact form\'s own: where the form counts characters (graphemes) and UTF-8 bytes, the cap here is the bytes, which bound the code points counted here. Made from the enquiry\'s fields by npm run schema:webhooks.',
    type: 'object',
    required: ['type', 'timestamp', 'data'],
    additionalProperties: false,
    properties: {
      type: { enum: [...WEBHOOK_EVENT_TYPES] },
      timestamp: {
        description: 'When the event was queued (ISO 8601, UTC): the same on every retry.',
        type: 'string',
        format: 'date-time',
      },
      data: { type: 'object' },
    },
    oneOf: [
      { properties: { type: { const: 'enquiry.received' }, data: { $ref: '#/$defs/enquiry' } } },
      { properties: { type: { const: 'enquiry.erased' }, data: { $ref: '#/$defs/erased' } } },
      { properties: { type: { const: 'subscriber.confirmed' }, data: { $ref: '#/$defs/subscriber' } } },
      { properties: { type: { const: 'subscriber.left' }, data: { $ref: '#/$defs/subscriber' } } },
      { properties: { type: { const: 'subscriber.erased' }, data: { $ref: '#/$defs/subscriberErased' } } },
    ],
    $defs: {
      id: {
        description: "The enquiry's id, as the desk and the delivered e-mail show it.",
        type: 'string',
        pattern: '^[A-Za-z0-9_-]{1,64}$',
      },
      erased: {
        description:
          "The enquiry was erased (by an operator, by the person's request, by withdrawal, or by the retention period): erase your copy. The id only.",
        type: 'object',
        required: ['id'],
        additionalProperties: false,
        properties: { id: { $ref: '#/$defs/id' } },
      },
      subscriberId: {
        description: "The early access entry's id: keep it beside the contact, since subscriber.erased names only it.",
        type: 'string',
        pattern: '^ea-[0-9a-f]{32}$',
      },
      subscriber: {
        description:
          'An early access entry: subscriber.confirmed when its address is confirmed (add it to your list), subscriber.left when a confirmed address leaves (unsubscribe it).',
        type: 'object',
        required: ['id', 'email', 'confirmedAt', 'consentVersion', 'leftAt'],
        additionalProperties: false,
        properties: {
          id: { $ref: '#/$defs/subscriberId' },
          email: { type: 'string', format: 'email', minLength: 1, maxLength: EARLY_ACCESS_FIELDS.email.max },
          confirmedAt: { type: ['string', 'null'], format: 'date-time' },
          consentVersion: { description: 'Which consent line the form showed.', type: 'string', minLength: 1 },
          leftAt: { description: 'Null until it leaves.', type: ['string', 'null'], format: 'date-time' },
        },
      },
      subscriberErased: {
        description:
          "The early access entry was erased at the person's request: delete the contact you keep under this id. The id only.",
        type: 'object',
        required: ['id'],
        additionalProperties: false,
        properties: { id: { $ref: '#/$defs/subscriberId' } },
      },
      enquiry: {
        description: 'An enquiry as the contact form stored it.',
        type: 'object',
        required: Object.keys(properties),
        additionalProperties: false,
        properties,
      },
    },
  }
}
