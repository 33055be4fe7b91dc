import {
  AnonCredsCredentialDefinitionPrivateRepository,
  AnonCredsCredentialDefinitionRepository,
  AnonCredsCredentialRepository,
  AnonCredsHolderServiceSymbol,
  AnonCredsIssuerServiceSymbol,
  AnonCredsKeyCorrectnessProofRepository,
  AnonCredsLinkSecretRepository,
  AnonCredsModule,
  AnonCredsModuleConfig,
  type AnonCredsModuleConfigOptions,
  type AnonCredsRegistry,
  AnonCredsRegistryService,
  AnonCredsRevocationRegistryDefinitionPrivateRepository,
  AnonCredsRevocationRegistryDefinitionRepository,
  AnonCredsSchemaRepository,
  AnonCredsVerifierServiceSymbol,
  type TailsFileService,
} from '@credo-ts/anoncreds'
import type { DependencyManager } from '@credo-ts/core'

import { IdplaneAnonCredsHolderService } from './holder-service'
import { IdplaneAnonCredsIssuerService } from './issuer-service'
import { IdplaneAnonCredsVerifierService } from './verifier-service'

/**
 * Credo's AnonCredsModule (its API, repositories, registry service and storage updates) with our TypeScript
 * issuer, holder and verifier services in place of the anoncreds-rs ones. Nothing here touches
 * `@hyperledger/anoncreds-shared`'s native binding: the `anoncreds` option only feeds Credo's anoncreds-rs services,
 * which are never registered, and the anoncreds-rs data-integrity service is left out (no W3C AnonCreds).
 */
export class IdplaneAnonCredsModule extends AnonCredsModule {
  public constructor(options: {
    registries: [AnonCredsRegistry, ...AnonCredsRegistry[]]
    autoCreateLinkSecret?: boolean
    /** Where revocation registries' tails files are uploaded and downloaded (PlatformTailsFileService). */
    tailsFileService?: TailsFileService
  }) {
    super({
      ...options,
      // Read only by the anoncreds-rs services, which this module does not register.
      anoncreds: NO_NATIVE_ANONCREDS,
    })
    // Credo's AnonCreds storage updates (0.3.1 → 0.5) convert records this platform never wrote (its agents started on
    // Credo 0.6); on a fresh store they find nothing and log an error about a missing link secret.
    this.updates = []
  }

  public override register(dependencyManager: DependencyManager) {
    dependencyManager.registerInstance(AnonCredsModuleConfig, this.config)
    dependencyManager.registerSingleton(AnonCredsRegistryService)
    dependencyManager.registerSingleton(AnonCredsSchemaRepository)
    dependencyManager.registerSingleton(AnonCredsCredentialDefinitionRepository)
    dependencyManager.registerSingleton(AnonCredsCredentialDefinitionPrivateRepository)
    dependencyManager.registerSingleton(AnonCredsKeyCorrectnessProofRepository)
    dependencyManager.registerSingleton(AnonCredsLinkSecretRepository)
    dependencyManager.registerSingleton(AnonCredsCredentialRepository)
    dependencyManager.registerSingleton(AnonCredsRevocationRegistryDefinitionRepository)
    dependencyManager.registerSingleton(AnonCredsRevocationRegistryDefinitionPrivateRepository)
    dependencyManager.registerSingleton(AnonCredsHolderServiceSymbol, IdplaneAnonCredsHolderService)
    dependencyManager.registerSingleton(AnonCredsIssuerServiceSymbol, IdplaneAnonCredsIssuerService)
    dependencyManager.registerSingleton(AnonCredsVerifierServiceSymbol, IdplaneAnonCredsVerifierService)
  }
}

const NO_NATIVE_ANONCREDS = Object.freeze({}) as unknown as AnonCredsModuleConfigOptions['anoncreds']
