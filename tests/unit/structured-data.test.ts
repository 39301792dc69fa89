// @vitest-environment node
import Validator, { type ExtractedData } from '@adobe/structured-data-validator'
import { describe, expect, it } from 'vitest'
import type { ServicePath } from '~/content/pages'
import { pages } from '~/content/pages'
import { homeHead, organizationJsonLd, productsHead, serviceHead } from '~/lib/structured-data'
import { schemaOrgJsonLd } from '../support/schema-org'

type JsonLd = Record<string, unknown>

/** The JSON-LD among a head's meta entries (`{ 'script:ld+json': … }`). */
const jsonLdOf = (meta: readonly object[]) =>
  meta.flatMap((entry) => ('script:ld+json' in entry ? [entry['script:ld+json'] as JsonLd] : []))

const servicePaths = pages.map((p) => p.path).filter((path): path is ServicePath => path.startsWith('/services/'))

/** Everything the site's pages describe: the Organization (every page), the WebSite (home), each Service and its breadcrumbs, the product. */
function siteJsonLd(): JsonLd[] {
  return [
    organizationJsonLd(),
    ...jsonLdOf(homeHead().meta),
    ...servicePaths.flatMap((path) => jsonLdOf(serviceHead(path).meta)),
    ...jsonLdOf(productsHead().meta),
  ]
}

/** Items grouped by their type, as the validator takes them. */
function extracted(items: JsonLd[]): ExtractedData {
  const jsonld: Record<string, JsonLd[]> = {}
  for (const item of items) {
    const type = String(item['@type'])
    jsonld[type] = [...(jsonld[type] ?? []), structuredClone(item)]
  }
  return { jsonld }
}

const validator = new Validator(schemaOrgJsonLd())
const issuesOf = async (items: JsonLd[]) =>
  (await validator.validate(extracted(items))).map(({ rootType, severity, issueMessage }) => ({
    rootType,
    severity,
    issueMessage,
  }))

describe('structured data (JSON-LD), checked offline against Schema.org and Google’s rich-result rules', () => {
  it('describes the Organization, the WebSite, each Service and the product', () => {
    const count = (type: string) => siteJsonLd().filter((item) => item['@type'] === type).length
    const types = ['Organization', 'WebSite', 'Service', 'BreadcrumbList', 'SoftwareApplication']
    expect(types.map(count)).toEqual([1, 1, 4, 4, 1])
  })

  it('has no error and no warning', async () => {
    expect(await issuesOf(siteJsonLd())).toEqual([])
  })

  it('the validator does refuse what is wrong (so the result above means something)', async () => {
    const issues = await issuesOf([
      { '@context': 'https://schema.org', '@type': 'Servise', name: 'x' },
      { '@context': 'https://schema.org', '@type': 'Organization', url: 'https://example.com/', colour: 'blue' },
      {
        '@context': 'https://schema.org',
        '@type': 'BreadcrumbList',
        itemListElement: [{ '@type': 'ListItem', position: 1 }],
      },
    ])
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          severity: 'ERROR',
          issueMessage: expect.stringContaining('"Servise" is not a valid'),
        }),
        expect.objectContaining({ severity: 'ERROR', issueMessage: expect.stringContaining('"name" is missing') }),
        expect.objectContaining({ severity: 'WARNING', issueMessage: expect.stringContaining('"colour"') }),
        expect.objectContaining({ rootType: 'BreadcrumbList', severity: 'WARNING' }),
      ]),
    )
  })
})
