import {
  type AgentContext,
  asArray,
  injectable,
  JsonTransformer,
  vcLibraries,
  W3cCredentialsModuleConfig,
  W3cJsonLdCredentialService,
  type W3cJsonLdVerifyCredentialOptions,
  type W3cJsonLdVerifyPresentationOptions,
  type W3cVerifyCredentialResult,
  type W3cVerifyPresentationResult,
} from '@credo-ts/core'

import { checkCredentialStatus, type StatusCheck } from './status-list-check'

/** The suite builder of Credo's service (private there, the same for a presentation's proofs as a credential's). */
interface SuiteBuilder {
  getSignatureSuitesForCredential(agentContext: AgentContext, document: unknown): unknown[]
}

/** vc.js' `verify`, which takes the `checkStatus` Credo's service never passes. */
type VcVerify = (options: Record<string, unknown>) => Promise<{
  verified: boolean
  error?: unknown
  [key: string]: unknown
}>

const hasStatus = (document: unknown): boolean =>
  typeof document === 'object' && document !== null && 'credentialStatus' in document

/**
 * Credo's JSON-LD credential service with W3C Bitstring Status List checks (issue 25 item 4). Stock Credo 0.6.3
 * refuses any JSON-LD credential that carries `credentialStatus` ("Verifying credential status for JSON-LD credentials
 * is currently not supported"), as a holder receiving it and as a verifier; here a credential with a status is
 * verified as Credo verifies it and then its status is checked (status-list-check.ts): revoked or suspended fails with
 * the reason. Credentials without a status take Credo's path unchanged.
 */
@injectable()
export class StatusCheckingJsonLdCredentialService extends W3cJsonLdCredentialService {
  public override async verifyCredential(
    agentContext: AgentContext,
    options: W3cJsonLdVerifyCredentialOptions,
  ): Promise<W3cVerifyCredentialResult> {
    const json = JsonTransformer.toJSON(options.credential) as Record<string, unknown>
    if (!hasStatus(json) || options.verifyCredentialStatus === false)
      return super.verifyCredential(agentContext, options)
    const result = await super.verifyCredential(agentContext, { ...options, verifyCredentialStatus: false })
    if (!result.isValid) return result
    const status = await this.checkStatus(agentContext, json)
    if (status.ok) return { ...result, validations: { ...result.validations, credentialStatus: { isValid: true } } }
    const error = new Error(status.reason)
    return {
      isValid: false,
      validations: { ...result.validations, credentialStatus: { isValid: false, error } },
      error,
    }
  }

  public override async verifyPresentation(
    agentContext: AgentContext,
    options: W3cJsonLdVerifyPresentationOptions,
  ): Promise<W3cVerifyPresentationResult> {
    const presentation = JsonTransformer.toJSON(options.presentation) as Record<string, unknown>
    const credentials = asArray(presentation.verifiableCredential as unknown)
    if (!credentials.some(hasStatus)) return super.verifyPresentation(agentContext, options)
    // vc.js demands a checkStatus for credentials with a status and Credo passes none: the presentation is verified
    // here with the same suites, context loader and purpose, plus the status check.
    const failures: string[] = []
    try {
      const builder = this as unknown as SuiteBuilder
      const suites = [options.presentation, ...asArray(options.presentation.verifiableCredential)].flatMap((document) =>
        builder.getSignatureSuitesForCredential(agentContext, document),
      )
      const documentLoader = agentContext.dependencyManager
        .resolve(W3cCredentialsModuleConfig)
        .documentLoader(agentContext)
      const verify = vcLibraries.vc.verify as unknown as VcVerify
      const result = await verify({
        presentation,
        suite: suites,
        challenge: options.challenge,
        domain: options.domain,
        documentLoader,
        ...(options.purpose ? { presentationPurpose: options.purpose } : {}),
        checkStatus: async ({ credential }: { credential: Record<string, unknown> }) => {
          const status = await this.checkStatus(agentContext, credential)
          if (status.ok) return { verified: true }
          failures.push(status.reason)
          return { verified: false, error: new Error(status.reason) }
        },
      })
      const { verified: isValid, ...rest } = result
      const error = failures.length > 0 ? new Error(failures.join('; ')) : result.error
      return { isValid, validations: { vcJs: { isValid, ...rest } }, error } as W3cVerifyPresentationResult
    } catch (error) {
      return { isValid: false, validations: {}, error: error as Error }
    }
  }

  private checkStatus(agentContext: AgentContext, credential: Record<string, unknown>): Promise<StatusCheck> {
    return checkCredentialStatus(agentContext, credential, (list) =>
      this.verifyCredential(agentContext, { credential: list }),
    )
  }
}
