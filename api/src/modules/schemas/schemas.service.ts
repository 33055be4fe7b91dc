import { injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import { ConflictError, InvalidInputError, NotFoundError, NotImplementedError } from '@idplane/common'
import type { OrgCaller } from '../memberships/org-caller.decorator'
import type { CredentialSchema } from './credential-schema.entity'
import { buildCredentialJsonSchema } from './json-schema-builder'
import { PublishedSchemaUrls, isUuid } from './published-schema-urls'
import { readJsonSchemaPayload } from './schema-payloads'
import { SchemasRepository, type SchemaPageQuery } from './schemas.repository'
import type { CreateSchemaDto } from './dto/create-schema.dto'

/** A legacy Indy schema id (`<did>:2:<name>:<version>`) or its did:indy form: well formed, but on no ledger here. */
const INDY_SCHEMA_ID =
  /^(?:[1-9A-HJ-NP-Za-km-z]{21,22}:2:[^:]+:[^:]+|did:indy:[a-z0-9:]+:[1-9A-HJ-NP-Za-km-z]{21,22}\/anoncreds\/v0\/SCHEMA\/[^/]+\/[^/]+)$/

/** Credential schemas: creating JSON schemas, reading them, and the published documents. */
@injectable()
export class SchemasService {
  public constructor(
    private readonly schemas: SchemasRepository,
    private readonly urls: PublishedSchemaUrls,
  ) {}

  /**
   * Builds and stores a JSON schema, published from then on at its URL.
   * @throws InvalidInputError for a bad payload or attribute definition (each path named)
   * @throws NotImplementedError for `type: INDY` and ledger-hosted `schemaType`s
   * @throws ConflictError when the organization has a schema of that name and version
   */
  public async create(orgId: string, caller: OrgCaller, body: CreateSchemaDto): Promise<CredentialSchema> {
    if (body.type === 'INDY') {
      throw new NotImplementedError(
        'INDY schemas need an Indy ledger, which this platform does not reach yet; create a JSON schema (type JSON)',
      )
    }
    const payload = readJsonSchemaPayload(body.schemaPayload)
    const jsonSchema = buildCredentialJsonSchema({
      name: payload.name,
      description: payload.description,
      attributes: payload.attributes,
    })
    const conflict = () =>
      new ConflictError(
        `A schema named ${payload.name} with version ${payload.version} already exists in this organization`,
      )
    try {
      return await this.schemas.transactional(async () => {
        if (await this.schemas.findByNameVersion(orgId, payload.name, payload.version)) throw conflict()
        return this.schemas.add(orgId, {
          type: 'JSON',
          schemaType: payload.schemaType,
          name: payload.name,
          version: payload.version,
          description: payload.description ?? null,
          alias: body.alias ?? null,
          attributes: payload.attributes as Record<string, unknown>[],
          jsonSchema,
          createdBy: caller.userId,
          publisherDid: await this.schemas.primaryDid(orgId),
        })
      })
    } catch (error) {
      // Two concurrent creations of one name and version: the unique constraint decides.
      if (error instanceof UniqueConstraintViolationException) throw conflict()
      throw error
    }
  }

  public list(orgId: string, query: SchemaPageQuery): Promise<[CredentialSchema[], number]> {
    return this.schemas.list(orgId, query)
  }

  /**
   * One of the organization's schemas by record id or by its public URL.
   * @throws InvalidInputError when `schemaId` is neither a schema id, a URL nor a ledger schema id
   * @throws NotFoundError when the organization has no such schema
   */
  public async get(orgId: string, schemaId: string): Promise<CredentialSchema> {
    const id = this.recordIdOf(schemaId)
    const schema = id === undefined ? null : await this.schemas.findForOrg(orgId, id)
    if (!schema) throw new NotFoundError('This organization has no schema with this id')
    return schema
  }

  /** The public URL of a schema (its `schemaLedgerId`). */
  public urlOf(schema: CredentialSchema): string {
    return this.urls.urlOf(schema.id)
  }

  /** The JSON Schema document the platform publishes for a record, with its URL as `$id`. */
  public documentOf(schema: CredentialSchema): Record<string, unknown> {
    const { $schema, ...rest } = schema.jsonSchema
    return { $schema, $id: this.urlOf(schema), ...rest }
  }

  /**
   * The published document of a schema, for `GET /schemas/:schemaId` (no token).
   * @throws NotFoundError when nothing is published under that id
   */
  public async published(schemaId: string): Promise<Record<string, unknown>> {
    const schema = isUuid(schemaId) ? await this.schemas.findPublished(schemaId.toLowerCase()) : null
    if (!schema) throw new NotFoundError('No schema is published at this URL')
    return this.documentOf(schema)
  }

  /** The record id `schemaId` names; undefined for a well-formed id that cannot be ours (404). */
  private recordIdOf(schemaId: string): string | undefined {
    if (isUuid(schemaId)) return schemaId.toLowerCase()
    if (/^https?:\/\//i.test(schemaId) && URL.canParse(schemaId)) return this.urls.idOf(schemaId)
    if (INDY_SCHEMA_ID.test(schemaId)) return undefined
    throw new InvalidInputError(
      'schemaId must be a schema id (UUID), the schema URL (schemaLedgerId) or a ledger schema id',
      [{ field: 'schemaId', message: 'is malformed' }],
    )
  }
}
