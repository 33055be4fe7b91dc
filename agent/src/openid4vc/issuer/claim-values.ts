import { type FieldError, InvalidInputError } from '@idplane/common'

import type { CredentialTemplateRecord, TemplateClaim } from './credential-template.record'

export type ClaimValues = Record<string, unknown>

/** The disclosure frame of @sd-jwt (Credo's IDisclosureFrame): `_sd` lists the member names issued as disclosures. */
export interface DisclosureFrame {
  _sd?: string[]
  [member: string]: string[] | DisclosureFrame | undefined
}

type TemplateShape = Pick<CredentialTemplateRecord, 'format' | 'claims'>

/**
 * Checks the values an offer gives for one template: a JSON object (for mso_mdoc: namespaces of elements) holding
 * every mandatory claim and nothing the template does not declare (a declared claim may hold an object). `field`
 * prefixes the field names of the problems.
 * @throws {InvalidInputError}
 */
export function checkClaimValues(template: TemplateShape, values: unknown, field = 'claims'): ClaimValues {
  const problems: FieldError[] = []
  if (!isPlainObject(values))
    throw new InvalidInputError('Invalid claims', [{ field, message: 'must be a JSON object' }])
  for (const claim of template.claims) {
    const value = valueAt(values, claim.path)
    if (value === undefined && claim.mandatory)
      problems.push({ field: fieldOf(field, claim.path), message: 'is mandatory' })
    if (value === null) problems.push({ field: fieldOf(field, claim.path), message: 'must not be null' })
  }
  collectUndeclared(values, [], template.claims, field, problems)
  if (problems.length > 0) throw new InvalidInputError('Invalid claims', problems)
  return values
}

/**
 * The SD-JWT disclosure frame for the values: every present claim the template marks selectively disclosable
 * (the default) becomes a disclosure at its place, nested claims inside their parent object.
 */
export function disclosureFrameFor(template: TemplateShape, values: ClaimValues): DisclosureFrame {
  const frame: DisclosureFrame = {}
  for (const claim of template.claims) {
    if (claim.selectivelyDisclosable === false || valueAt(values, claim.path) === undefined) continue
    let node = frame
    for (const member of claim.path.slice(0, -1)) {
      const next = node[member]
      if (next === undefined || Array.isArray(next)) node[member] = {}
      node = node[member] as DisclosureFrame
    }
    const last = claim.path[claim.path.length - 1]
    node._sd = [...(node._sd ?? []), last]
  }
  return frame
}

/** The value at a path of member names, or undefined. */
export function valueAt(values: unknown, path: readonly string[]): unknown {
  let node: unknown = values
  for (const member of path) {
    if (!isPlainObject(node) || !Object.prototype.hasOwnProperty.call(node, member)) return undefined
    node = node[member]
  }
  return node
}

/** Members that are neither a declared claim nor on the way to one. A declared claim's own content is not walked. */
function collectUndeclared(
  node: Record<string, unknown>,
  path: string[],
  claims: TemplateClaim[],
  field: string,
  problems: FieldError[],
): void {
  for (const [member, value] of Object.entries(node)) {
    const memberPath = [...path, member]
    if (claims.some((claim) => samePath(claim.path, memberPath))) continue
    const isOnTheWay = claims.some(
      (claim) => claim.path.length > memberPath.length && samePath(claim.path.slice(0, memberPath.length), memberPath),
    )
    if (!isOnTheWay) {
      problems.push({ field: fieldOf(field, memberPath), message: 'is not a claim of the template' })
      continue
    }
    if (!isPlainObject(value)) {
      problems.push({ field: fieldOf(field, memberPath), message: 'must be a JSON object holding the claims below it' })
      continue
    }
    collectUndeclared(value, memberPath, claims, field, problems)
  }
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((member, index) => member === b[index])
}

function fieldOf(prefix: string, path: readonly string[]): string {
  return [prefix, ...path].join('.')
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
