/**
 * Whether a JSON-LD presentation keeps to the claim formats its DIF Presentation Exchange v1 definition asks for
 * (the definition's `format` and each input descriptor's `format`). Credo's verification runs PEX, which checks
 * the fields and the submission but not the proof types a `format` names, so a request for Ed25519Signature2020
 * credentials accepted a credential signed with Ed25519Signature2018. This is the missing check, run before Credo's.
 *
 * Rules, for a Linked Data presentation (`ldp_vp` with `ldp_vc` credentials):
 * - the presentation's proofs must be of a type `ldp_vp` (or else `ldp`) names, when one of them is given;
 * - each credential's proofs must be of a type `ldp_vc` (or else `ldp`) names, when one of them is given;
 * - a `format` that names designations but none of `ldp_vp`, `ldp_vc`, `ldp`, `di_vp`, `di_vc`, `di` refuses a
 *   Linked Data presentation outright (the verifier asked for JWTs, SD-JWTs or mdocs only);
 * - `DataIntegrityProof` proofs are also checked against a `cryptosuite` list when the designation has one.
 * An input descriptor's `format` applies to the credentials the submission maps to that descriptor.
 */

export interface ClaimFormatDesignation {
  proof_type?: unknown
  cryptosuite?: unknown
  [key: string]: unknown
}

/** Designations by name (`ldp_vc`, `jwt_vp` ...); values are checked where read. */
export type ClaimFormats = Record<string, unknown>

export interface DefinitionWithFormats {
  format?: ClaimFormats
  input_descriptors?: readonly { id?: unknown; format?: ClaimFormats }[]
}

interface Proof {
  type?: unknown
  cryptosuite?: unknown
}

const LINKED_DATA_DESIGNATIONS = ['ldp_vp', 'ldp_vc', 'ldp', 'di_vp', 'di_vc', 'di']

/** The reasons the presentation breaks the definition's formats; empty when it keeps to them. */
export function formatViolations(definition: DefinitionWithFormats, presentation: unknown): string[] {
  if (!isObject(presentation)) return ['the presentation is not a JSON-LD verifiable presentation']
  const problems: string[] = []
  const credentials = asArray(presentation.verifiableCredential)
  if (isDesignating(definition.format)) {
    problems.push(...check('the presentation', proofsOf(presentation), definition.format, 'vp', 'presentation format'))
    credentials.forEach((credential, index) => {
      problems.push(
        ...check(`credential ${index}`, proofsOf(credential), definition.format as ClaimFormats, 'vc', 'format'),
      )
    })
  }
  const submission = isObject(presentation.presentation_submission) ? presentation.presentation_submission : {}
  const descriptorMap = asArray(submission.descriptor_map).filter(isObject)
  for (const descriptor of definition.input_descriptors ?? []) {
    if (!isDesignating(descriptor.format)) continue
    const mapped = descriptorMap.filter((entry) => entry.id === descriptor.id)
    // A mapping whose path we cannot follow checks every credential: stricter, never looser.
    const indexes = mapped.map((entry) => credentialIndex(entry)).filter((index) => index !== undefined)
    const targets = mapped.length > 0 && indexes.length === mapped.length ? indexes : credentials.map((_, i) => i)
    for (const index of targets) {
      problems.push(
        ...check(
          `credential ${index} (input descriptor ${String(descriptor.id)})`,
          proofsOf(credentials[index]),
          descriptor.format,
          'vc',
          'input descriptor format',
        ),
      )
    }
  }
  return [...new Set(problems)]
}

function check(what: string, proofs: Proof[], format: ClaimFormats, kind: 'vp' | 'vc', source: string): string[] {
  const named = Object.keys(format).filter((key) => format[key] !== undefined)
  if (!named.some((key) => LINKED_DATA_DESIGNATIONS.includes(key))) {
    return [`${what} is Linked Data (ldp_${kind}); the ${source} accepts only ${named.join(', ')}`]
  }
  const designation = pick(format, kind)
  if (!designation) return []
  const proofTypes = stringList(designation.proof_type)
  const cryptosuites = stringList(designation.cryptosuite)
  if (proofs.length === 0) return [`${what} carries no proof`]
  const problems: string[] = []
  for (const proof of proofs) {
    const type = typeof proof.type === 'string' ? proof.type : String(proof.type)
    if (proofTypes && !proofTypes.includes(type)) {
      problems.push(`${what} is signed with ${type}; the ${source} asks for ${proofTypes.join(' or ')}`)
    } else if (type === 'DataIntegrityProof' && cryptosuites) {
      const suite = String(proof.cryptosuite)
      if (!cryptosuites.includes(suite)) {
        problems.push(`${what} uses cryptosuite ${suite}; the ${source} asks for ${cryptosuites.join(' or ')}`)
      }
    }
  }
  return problems
}

/** The designation that governs a presentation (`vp`) or a credential (`vc`), the specific one first. */
function pick(format: ClaimFormats, kind: 'vp' | 'vc'): ClaimFormatDesignation | undefined {
  for (const key of [`ldp_${kind}`, `di_${kind}`, 'ldp', 'di']) {
    const designation = format[key]
    if (isObject(designation)) return designation as ClaimFormatDesignation
  }
  return undefined
}

function isDesignating(format: unknown): format is ClaimFormats {
  return isObject(format) && Object.values(format).some((value) => value !== undefined)
}

/** `$.verifiableCredential[2]` (or `$.verifiableCredential` for a single credential) → its index. */
function credentialIndex(entry: Record<string, unknown>): number | undefined {
  const path = typeof entry.path === 'string' ? entry.path.replace(/\s/g, '') : ''
  if (path === '$.verifiableCredential') return 0
  const match = /^\$(?:\.verifiableCredential|\['verifiableCredential'\]|\["verifiableCredential"\])\[(\d+)\]$/.exec(
    path,
  )
  return match ? Number(match[1]) : undefined
}

function proofsOf(value: unknown): Proof[] {
  return isObject(value) ? asArray(value.proof).filter(isObject) : []
}

function stringList(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value) && value.length > 0) return value.map(String)
  return undefined
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return []
  return Array.isArray(value) ? value : [value]
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
