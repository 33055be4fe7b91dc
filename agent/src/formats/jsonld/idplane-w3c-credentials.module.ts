import {
  type DependencyManager,
  Ed25519Signature2018,
  Kms,
  SignatureSuiteToken,
  VERIFICATION_METHOD_TYPE_ED25519_VERIFICATION_KEY_2018,
  VERIFICATION_METHOD_TYPE_ED25519_VERIFICATION_KEY_2020,
  SignatureSuiteRegistry,
  W3cCredentialRepository,
  W3cCredentialService,
  W3cCredentialsModule,
  W3cCredentialsModuleConfig,
  W3cJsonLdCredentialService,
  W3cJwtCredentialService,
} from '@credo-ts/core'

import { DidKeyEd25519Signature2020 } from './did-key-ed25519-signature-2020'
import { offlineDocumentLoader } from './offline-document-loader'
import { StatusCheckingJsonLdCredentialService } from './status-checking-jsonld-credential.service'

/**
 * Credo's W3C credentials module with three changes: the offline document loader, an Ed25519Signature2020
 * suite registered for 2018 verification methods too (what did:key resolves to), and the JSON-LD service that checks
 * Bitstring Status Lists (StatusCheckingJsonLdCredentialService) in place of Credo's, which refuses them. Credo registers its own
 * 2020 suite in `register` and the suite registry answers the first match per proof type, so `register`
 * lists the same services as Credo's and our suite instead of adding a second registration after it.
 */
export class IdplaneW3cCredentialsModule extends W3cCredentialsModule {
  public constructor() {
    super({ documentLoader: offlineDocumentLoader })
  }

  public override register(dependencyManager: DependencyManager): void {
    dependencyManager.registerSingleton(W3cCredentialService)
    dependencyManager.registerSingleton(W3cJwtCredentialService)
    dependencyManager.registerSingleton(W3cJsonLdCredentialService, StatusCheckingJsonLdCredentialService)
    dependencyManager.registerSingleton(W3cCredentialRepository)
    dependencyManager.registerSingleton(SignatureSuiteRegistry)
    dependencyManager.registerInstance(W3cCredentialsModuleConfig, this.config)
    dependencyManager.registerInstance(SignatureSuiteToken, {
      suiteClass: Ed25519Signature2018,
      proofType: 'Ed25519Signature2018',
      verificationMethodTypes: [
        VERIFICATION_METHOD_TYPE_ED25519_VERIFICATION_KEY_2018,
        VERIFICATION_METHOD_TYPE_ED25519_VERIFICATION_KEY_2020,
      ],
      supportedPublicJwkTypes: [Kms.Ed25519PublicJwk],
    })
    dependencyManager.registerInstance(SignatureSuiteToken, {
      suiteClass: DidKeyEd25519Signature2020,
      proofType: 'Ed25519Signature2020',
      // 2018 first: the JSON-LD credential format picks the issuer's verification method by the first type,
      // and did:key documents only carry Ed25519VerificationKey2018 methods.
      verificationMethodTypes: [
        VERIFICATION_METHOD_TYPE_ED25519_VERIFICATION_KEY_2018,
        VERIFICATION_METHOD_TYPE_ED25519_VERIFICATION_KEY_2020,
      ],
      supportedPublicJwkTypes: [Kms.Ed25519PublicJwk],
    })
  }
}
