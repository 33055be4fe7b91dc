import { injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import { ConflictError, InvalidInputError, NotFoundError } from '@idplane/common'
import type { AnonCredsSchemaResponse } from '@idplane/common/agent-contract/admin-api'
import { AgentClients } from '../../agent-client/agent-clients'
import type { OrgCaller } from '../memberships/org-caller.decorator'
import type { CredentialSchema } from './credential-schema.entity'
import { isIndySchemaId, namespaceOfDid, schemaIdForms } from '@idplane/common/ledger-ids'
import { OrgDidsRepository } from '../orgs/org-dids.repository'
import { IndyIssuers } from './indy-issuers'
import { buildCredentialJsonSchema } from './json-schema-builder'
import { PublishedSchemaUrls, isUuid } from './published-schema-urls'
import { readIndySchemaPayload, readJsonSchemaPayload } from './schema-payloads'
import { SchemasRepository, type SchemaPageQuery } from './schemas.repository'
import type { CreateSchemaDto } from './dto/create-schema.dto'

/** What `schemaId` of the read routes names: one of our records, or a schema on a ledger (INDY). */
export type SchemaReference = { kind: 'record'; schema: CredentialSchema } | { kind: 'ledger'; schemaId: string }

/**
 * Credential schemas: JSON schemas the platform publishes, INDY schemas registered through the organization's
 * agent (whatever AnonCreds registry it has: a ledger), reading them, and the published documents.
 */
@injectable()
export class SchemasService {
  public constructor(
    private readonly schemas: SchemasRepository,
    private readonly orgDids: OrgDidsRepository,
    private readonly urls: PublishedSchemaUrls,
    private readonly agents: AgentClients,
    private readonly issuers: IndyIssuers,
  ) {}

  /**
   * JSON: builds and stores a schema, published from then on at its URL. INDY: registers it through the
   * organization's agent, then stores the record with the attribute definitions.
   * @throws InvalidInputError for a bad payload or attribute definition (each path named), or a bad `orgDid`
   * @throws NotImplementedError for ledger-hosted JSON `schemaType`s
   * @throws ConflictError when the organization has a schema of that name and version, or the ledger has another
   */
  public async create(orgId: string, caller: OrgCaller, body: CreateSchemaDto): Promise<CredentialSchema> {
    if (body.type === 'INDY') return this.createIndy(orgId, caller, body)
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
          publisherDid: (await this.orgDids.findPrimary(orgId))?.did ?? null,
        })
      })
    } catch (error) {
      // Two concurrent creations of one name and version: the unique constraint decides.
      if (error instanceof UniqueConstraintViolationException) throw conflict()
      throw error
    }
  }

  /**
   * An INDY schema: the agent registers it under the organization's Indy DID (IndyIssuers), and the record keeps
   * the ledger id, the issuer and the attribute definitions.
   */
  private async createIndy(orgId: string, caller: OrgCaller, body: CreateSchemaDto): Promise<CredentialSchema> {
    const payload = readIndySchemaPayload(body.schemaPayload)
    const conflict = (detail = 'in this organization') =>
      new ConflictError(`A schema named ${payload.name} with version ${payload.version} already exists ${detail}`)
    if (await this.schemas.findByNameVersion(orgId, payload.name, payload.version)) throw conflict()
    const issuerId = await this.issuers.issuerFor(orgId, payload.orgDid)
    const agent = await this.agents.forOrg(orgId)
    let registered: AnonCredsSchemaResponse
    try {
      registered = await agent.createAnonCredsSchema({
        ...(issuerId ? { issuerId } : { legacyIdentifiers: true }),
        name: payload.name,
        version: payload.version,
        attributes: payload.attributes.map((attribute) => attribute.attributeName),
      })
    } catch (error) {
      if (error instanceof ConflictError) throw conflict(`on the ledger: ${error.message}`)
      throw error
    }
    // Records keep the spec's legacy id and the did:indy form beside it (issue 22 item 1).
    const forms = schemaIdForms(registered.schemaId, namespaceOfDid(registered.schema.issuerId))
    try {
      return await this.schemas.transactional(async () => {
        if (await this.schemas.findByNameVersion(orgId, payload.name, payload.version)) throw conflict()
        return this.schemas.add(orgId, {
          type: 'INDY',
          schemaType: 'INDY',
          name: payload.name,
          version: payload.version,
          description: null,
          alias: body.alias ?? null,
          attributes: payload.attributes as unknown as Record<string, unknown>[],
          jsonSchema: {},
          ledgerId: forms?.legacy ?? registered.schemaId,
          ledgerDidIndyId: forms?.didIndy ?? null,
          issuerId: registered.schema.issuerId,
          createdBy: caller.userId,
          publisherDid: registered.schema.issuerId,
        })
      })
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict()
      throw error
    }
  }

  public list(orgId: string, query: SchemaPageQuery): Promise<[CredentialSchema[], number]> {
    return this.schemas.list(orgId, query)
  }

  /**
   * What `schemaId` names: one of the organization's schemas by record id or public URL, or a ledger schema id.
   * @throws InvalidInputError when `schemaId` is neither a schema id, a URL nor a ledger schema id
   * @throws NotFoundError when the organization has no such record
   */
  public async reference(orgId: string, schemaId: string): Promise<SchemaReference> {
    if (isIndySchemaId(schemaId)) return { kind: 'ledger', schemaId }
    const id = this.recordIdOf(schemaId)
    const schema = id === undefined ? null : await this.schemas.findForOrg(orgId, id)
    if (!schema) throw new NotFoundError('This organization has no schema with this id')
    return { kind: 'record', schema }
  }

  /**
   * A schema as the ledger holds it, read through the organization's agent (and its registry).
   * @throws NotFoundError when it is on no ledger the agent reads (or the organization has no agent)
   */
  public ledgerSchema(orgId: string, schemaId: string): Promise<AnonCredsSchemaResponse> {
    return this.agents.forOrg(orgId).then((agent) => agent.getAnonCredsSchema(schemaId))
  }

  /** The organization's record of a ledger schema (either id form), when it created it. */
  public recordOfLedgerId(orgId: string, schemaId: string): Promise<CredentialSchema | null> {
    return this.schemas.findByLedgerId(orgId, schemaIdForms(schemaId)?.legacy ?? schemaId)
  }

  /**
   * The ledger id of the INDY schema `schemaId` names (record id, public URL or ledger id), for listing its credential
   * definitions; null for a schema of the organization with none (a JSON schema: definitions are INDY).
   * @throws NotFoundError when the organization has no such record, or a ledger id of neither the organization
   *   nor any ledger its agent reads
   */
  public async indyLedgerIdOf(orgId: string, schemaId: string): Promise<string | null> {
    const reference = await this.reference(orgId, schemaId)
    if (reference.kind === 'record') {
      return reference.schema.type === 'INDY' && reference.schema.ledgerId ? reference.schema.ledgerId : null
    }
    // Not one of ours: 404 unless the ledger has it. Definitions name their schema by the legacy id.
    if (!(await this.recordOfLedgerId(orgId, reference.schemaId))) await this.ledgerSchema(orgId, reference.schemaId)
    return schemaIdForms(reference.schemaId)?.legacy ?? reference.schemaId
  }

  /** The `schemaLedgerId` of a schema: the ledger id (INDY) or the public URL (JSON). */
  public ledgerIdOf(schema: CredentialSchema): string {
    return schema.ledgerId ?? this.urls.urlOf(schema.id)
  }

  /** The public URL of a JSON schema. */
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
    throw new InvalidInputError(
      'schemaId must be a schema id (UUID), the schema URL (schemaLedgerId) or a ledger schema id',
      [{ field: 'schemaId', message: 'is malformed' }],
    )
  }
}
