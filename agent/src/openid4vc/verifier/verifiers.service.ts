import { type AgentContext, injectable } from '@credo-ts/core'
import { OpenId4VcVerifierApi, type OpenId4VcVerifierRecord, OpenId4VcVerifierRepository } from '@credo-ts/openid4vc'
import { ConflictError, type FieldError, InvalidInputError, NotFoundError } from '@idplane/common'

export interface VerifierInput {
  /** The public id, part of the verifier's URLs; a uuid when absent. */
  verifierId?: string
  /** Shown by wallets (`client_metadata.client_name`). */
  clientName?: string
  /** https URL of the verifier's logo (`client_metadata.logo_uri`). */
  logoUri?: string
}

const VERIFIER_ID = /^[A-Za-z0-9._~-]{1,100}$/

/** The organization's OID4VP verifiers (Credo's verifier records, served at `<base>/oid4vp/<verifierId>`). */
@injectable()
export class VerifiersService {
  public constructor(private readonly verifiers: OpenId4VcVerifierRepository) {}

  /**
   * @throws {InvalidInputError}
   * @throws {ConflictError} for a verifier id in use
   */
  public async create(agentContext: AgentContext, input: VerifierInput): Promise<OpenId4VcVerifierRecord> {
    checkVerifierInput(input)
    if (input.verifierId && (await this.verifiers.findSingleByQuery(agentContext, { verifierId: input.verifierId }))) {
      throw new ConflictError('A verifier with this id exists')
    }
    return agentContext.resolve(OpenId4VcVerifierApi).createVerifier({
      verifierId: input.verifierId,
      clientMetadata: clientMetadataOf(input),
    })
  }

  public async list(agentContext: AgentContext): Promise<OpenId4VcVerifierRecord[]> {
    const records = await this.verifiers.getAll(agentContext)
    return records.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  }

  /** @throws {NotFoundError} */
  public async get(agentContext: AgentContext, verifierId: string): Promise<OpenId4VcVerifierRecord> {
    const record = await this.verifiers.findSingleByQuery(agentContext, { verifierId })
    if (!record) throw new NotFoundError('Verifier not found')
    return record
  }

  /**
   * Replaces the client metadata (the id stays).
   * @throws {NotFoundError}
   * @throws {InvalidInputError}
   */
  public async update(
    agentContext: AgentContext,
    verifierId: string,
    input: Omit<VerifierInput, 'verifierId'>,
  ): Promise<OpenId4VcVerifierRecord> {
    checkVerifierInput(input)
    const record = await this.get(agentContext, verifierId)
    record.clientMetadata = clientMetadataOf(input)
    await this.verifiers.update(agentContext, record)
    return record
  }

  /**
   * Removes the verifier; its open requests can no longer be answered.
   * @throws {NotFoundError}
   */
  public async delete(agentContext: AgentContext, verifierId: string): Promise<void> {
    await this.verifiers.delete(agentContext, await this.get(agentContext, verifierId))
  }
}

function checkVerifierInput(input: VerifierInput): void {
  const problems: FieldError[] = []
  if (input.verifierId !== undefined && (typeof input.verifierId !== 'string' || !VERIFIER_ID.test(input.verifierId))) {
    problems.push({ field: 'verifierId', message: 'must be 1 to 100 URL-safe characters (letters, digits, . _ ~ -)' })
  }
  if (
    input.clientName !== undefined &&
    (typeof input.clientName !== 'string' || input.clientName.trim() === '' || input.clientName.length > 256)
  ) {
    problems.push({ field: 'clientName', message: 'must be a string of 1 to 256 characters' })
  }
  if (input.logoUri !== undefined && !/^https:\/\/\S+$/.test(String(input.logoUri))) {
    problems.push({ field: 'logoUri', message: 'must be an https URL' })
  }
  if (problems.length > 0) throw new InvalidInputError('Invalid verifier', problems)
}

function clientMetadataOf(input: VerifierInput): OpenId4VcVerifierRecord['clientMetadata'] {
  if (input.clientName === undefined && input.logoUri === undefined) return undefined
  return {
    ...(input.clientName !== undefined ? { client_name: input.clientName } : {}),
    ...(input.logoUri !== undefined ? { logo_uri: input.logoUri } : {}),
  }
}
