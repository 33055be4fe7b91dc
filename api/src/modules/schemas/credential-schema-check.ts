import { injectable } from 'inversify'
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import {
  LINEAR_REGEXP_LIMITS,
  linearRegExpEngine,
  UnsupportedPatternError,
  withPatternWorkBudget,
} from '@idplane/common/linear-regexp'
import { BoundedMap, InvalidInputError, type FieldError } from '@idplane/common'
import { PublishedSchemaUrls } from './published-schema-urls'
import { SchemasRepository } from './schemas.repository'

/** Compiled validators kept (by schema id and version of the record); compiling costs far more than validating. */
const COMPILED_SCHEMAS_CACHED = 500
/** Failing paths listed in one answer; a credential failing everywhere would otherwise produce a huge message. */
const ERRORS_LISTED = 20

/**
 * `isValidateSchema=true` for W3C credentials: a credential whose `credentialSchema` (an object or an array of
 * them) names a JSON schema published by this platform is validated against it before it is offered.
 * Published schemas are public, so a credential may name another organization's schema. A `credentialSchema`
 * that is not one of ours is refused: the platform does not fetch schemas from elsewhere (docs/decisions.md,
 * Schemas). A credential without `credentialSchema` has nothing to be validated against and passes.
 */
@injectable()
export class CredentialSchemaCheck {
  private readonly ajv: Ajv2020
  private readonly compiled = new BoundedMap<string, ValidateFunction>(COMPILED_SCHEMAS_CACHED)

  public constructor(
    private readonly schemas: SchemasRepository,
    private readonly urls: PublishedSchemaUrls,
  ) {
    // strict: false because published schemas carry annotations (title, contentMediaType) ajv's strict mode flags.
    // multipleOfPrecision: without it 0.3 is not a multiple of 0.1 in binary floating point.
    this.ajv = new Ajv2020({
      allErrors: true,
      strict: false,
      validateSchema: false,
      addUsedSchema: false,
      multipleOfPrecision: 9,
      // Patterns run on the linear-time matcher: V8's backtracking engine froze the API on `(a|a?)+$` (issue 23).
      code: { regExp: linearRegExpEngine },
    })
    addFormats(this.ajv)
  }

  /**
   * @throws InvalidInputError naming each failing path (`credentialSubject.age: must be >= 0`), or saying why the
   *   `credentialSchema` cannot be used
   */
  public async check(orgId: string, credential: Record<string, unknown>): Promise<void> {
    void orgId // Published schemas are public: any organization may issue under any of them.
    const declared = credential.credentialSchema
    if (declared === undefined || declared === null) return
    const entries = Array.isArray(declared) ? declared : [declared]
    for (const [index, entry] of entries.entries()) {
      const field = Array.isArray(declared) ? `credentialSchema[${index}].id` : 'credentialSchema.id'
      const url = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).id : undefined
      if (typeof url !== 'string' || url.length === 0) {
        throw new InvalidInputError(`${field} must be the URL of a schema`, [{ field, message: 'must be a URL' }])
      }
      await this.checkAgainst(url, field, credential)
    }
  }

  private async checkAgainst(url: string, field: string, credential: Record<string, unknown>): Promise<void> {
    if (!this.urls.isOurs(url)) {
      const message =
        'isValidateSchema=true needs a credentialSchema published by this platform (POST /v1/orgs/:orgId/schemas); ' +
        'pass isValidateSchema=false to offer a credential under another schema'
      throw new InvalidInputError(message, [{ field, message: `${url} is not a schema published by this platform` }])
    }
    const schemaId = this.urls.idOf(url)
    const schema = schemaId ? await this.schemas.findPublished(schemaId) : null
    if (!schemaId || !schema) {
      throw new InvalidInputError(`${field}: no schema is published at ${url}`, [
        { field, message: 'no schema is published at this URL' },
      ])
    }
    const key = `${schema.id}@${schema.updatedAt.getTime()}`
    let validate = this.compiled.get(key)
    if (!validate) {
      validate = this.ajv.compile({ ...schema.jsonSchema, $id: url })
      this.compiled.set(key, validate)
    }
    if (passesWith(validate, credential, `${schema.name} ${schema.version}`)) return
    const failures = (validate.errors ?? []).slice(0, ERRORS_LISTED).map(describeFailure)
    throw new InvalidInputError(
      `The credential does not match its schema ${schema.name} ${schema.version}: ${failures
        .map((failure) => `${failure.field}: ${failure.message}`)
        .join('; ')}`,
      failures,
    )
  }
}

/**
 * Whether the credential passes. A value too long or too costly for its pattern (LINEAR_REGEXP_LIMITS) is a 400
 * naming the schema, not a failure of the platform.
 */
function passesWith(validate: ValidateFunction, credential: Record<string, unknown>, schema: string): boolean {
  try {
    return withPatternWorkBudget(LINEAR_REGEXP_LIMITS.documentWork, () => validate(credential))
  } catch (error) {
    if (!(error instanceof UnsupportedPatternError)) throw error
    throw new InvalidInputError(`The credential cannot be checked against its schema ${schema}: ${error.reason}`, [
      { field: 'credentialSubject', message: error.reason },
    ])
  }
}

/** `/credentialSubject/tags/0` → `credentialSubject.tags[0]`; a missing property is named in the path. */
function describeFailure(error: ErrorObject): FieldError {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
  let message = error.message ?? 'is invalid'
  if (error.keyword === 'required' || error.keyword === 'dependentRequired') {
    segments.push(String((error.params as { missingProperty: string }).missingProperty))
    message = error.keyword === 'required' ? 'is required' : message
  }
  const field = segments.reduce(
    (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment),
    '',
  )
  return { field: field || '(credential)', message }
}
