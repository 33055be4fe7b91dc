// Reading the format data of a holder's exchanges (GET /v1/credential/:id/format-data, /v1/proofs/:id/format-data):
// what an offer contains and what a proof request asks for, to show before the holder answers.

type Json = Record<string, unknown>

const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined

export interface OfferPreview {
  format: 'jsonld' | 'anoncreds' | 'unknown'
  types: string[]
  issuer?: string
  /** The credential subject's id when the issuer set one (JSON-LD). */
  subjectId?: string
  attributes: [string, string][]
}

function display(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

export function offerPreview(formatData: Json): OfferPreview {
  const offer = asObject(formatData.offer) ?? {}
  const jsonld = asObject(offer.jsonld)
  const credential = asObject(jsonld?.credential) ?? asObject(asObject(asObject(formatData.credential)?.jsonld))
  if (credential) {
    const subject = asObject(credential.credentialSubject) ?? {}
    const issuer = typeof credential.issuer === 'string' ? credential.issuer : display(asObject(credential.issuer)?.id)
    const types = Array.isArray(credential.type)
      ? credential.type.map(String).filter((type) => type !== 'VerifiableCredential')
      : []
    return {
      format: 'jsonld',
      types,
      issuer,
      subjectId: typeof subject.id === 'string' ? subject.id : undefined,
      attributes: Object.entries(subject)
        .filter(([name]) => name !== 'id')
        .map(([name, value]): [string, string] => [name, display(value)]),
    }
  }
  const offered = Array.isArray(formatData.offerAttributes) ? formatData.offerAttributes : []
  const isAnonCreds = 'anoncreds' in offer || 'indy' in offer
  return {
    format: isAnonCreds ? 'anoncreds' : 'unknown',
    types: [],
    attributes: offered.map((attribute): [string, string] => {
      const entry = asObject(attribute) ?? {}
      return [String(entry.name ?? ''), display(entry.value)]
    }),
  }
}

/** Paths of the credential itself (not its subject) that requests commonly name, in words. */
const READABLE_PATHS: Record<string, string> = {
  '$.credentialSchema.id': 'the schema the credential follows',
  '$.issuer': 'who issued the credential',
  '$.type': 'the type of the credential',
}

export interface RequestPreview {
  format: 'presentation-exchange' | 'anoncreds' | 'unknown'
  purpose?: string
  /** What will be disclosed: attribute names, or JSON paths for Presentation Exchange. */
  disclosed: string[]
  /** What is proven without disclosing the value (AnonCreds predicates). */
  proven: string[]
}

export function requestPreview(formatData: Json): RequestPreview {
  const request = asObject(formatData.request) ?? {}
  const exchange = asObject(request.presentationExchange)
  const definition = asObject(exchange?.presentation_definition)
  if (definition) {
    const descriptors = Array.isArray(definition.input_descriptors) ? definition.input_descriptors : []
    const disclosed: string[] = []
    for (const descriptor of descriptors) {
      const fields = asObject(asObject(descriptor)?.constraints)?.fields
      for (const field of Array.isArray(fields) ? fields : []) {
        const paths = asObject(field)?.path
        const first = Array.isArray(paths) ? String(paths[0] ?? '') : ''
        disclosed.push(READABLE_PATHS[first] ?? first.replace(/^\$\.credentialSubject\./, '').replace(/^\$\./, ''))
      }
    }
    return {
      format: 'presentation-exchange',
      purpose: typeof definition.purpose === 'string' ? definition.purpose : undefined,
      disclosed: disclosed.length > 0 ? disclosed : ['the whole credential (the request names no fields)'],
      proven: [],
    }
  }
  const anoncreds = asObject(request.anoncreds) ?? asObject(request.indy)
  if (anoncreds) {
    const attributes = Object.values(asObject(anoncreds.requested_attributes) ?? {}).flatMap((entry) => {
      const item = asObject(entry) ?? {}
      return Array.isArray(item.names) ? item.names.map(String) : [String(item.name ?? '')]
    })
    const predicates = Object.values(asObject(anoncreds.requested_predicates) ?? {}).map((entry) => {
      const item = asObject(entry) ?? {}
      return `${String(item.name ?? '')} ${String(item.p_type ?? '')} ${String(item.p_value ?? '')}`
    })
    return { format: 'anoncreds', disclosed: attributes, proven: predicates }
  }
  return { format: 'unknown', disclosed: [], proven: [] }
}
