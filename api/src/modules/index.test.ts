import 'reflect-metadata'
import { Container } from 'inversify'
import { entitiesOf } from '../infra/module-registry'
import { API_MODULES } from '.'

describe('API_MODULES', () => {
  it('have unique names', () => {
    const names = API_MODULES.map((module) => module.name)
    expect(new Set(names).size).toBe(names.length)
  })

  it('declare every entity the API persists', () => {
    expect(
      entitiesOf(API_MODULES)
        .map((entity) => entity.name)
        .sort(),
    ).toEqual(
      [
        'AgentEvent',
        'AgentPortCounter',
        'BaseWallet',
        'BasicMessage',
        'BulkRequest',
        'BulkRow',
        'ClientCredential',
        'CloudWallet',
        'Connection',
        'ConnectionDeletion',
        'CredentialDefinition',
        'CredentialSchema',
        'Ecosystem',
        'EcosystemMembership',
        'EmailVerification',
        'Invitation',
        'IssuanceSessionRecord',
        'CredentialRecord',
        'LedgerAnchor',
        'LedgerTransaction',
        'OrgAgent',
        'OrgDid',
        'OrgRole',
        'Organization',
        'QuestionAnswer',
        'ProofRecord',
        'RateLimitHit',
        'RefreshToken',
        'RevocationRegistry',
        'RevokedSession',
        'ShortUrl',
        'StatusList',
        'StatusListEntryRow',
        'TailsFile',
        'User',
        'UserOrgRole',
        'Webhook',
        'VerificationSessionRecord',
        'WalletRecord',
        'WebhookDelivery',
      ].sort(),
    )
  })

  it('bind the counters and event handlers they declare in their own bindings', () => {
    for (const module of API_MODULES) {
      const container = new Container()
      container.load(module.bindings)
      const declared = [
        ...(module.counter ? [module.counter] : []),
        ...(module.agentEventHandlers ?? []).map((entry) => entry.handler),
      ]
      for (const identifier of declared) expect(container.isBound(identifier)).toBe(true)
    }
  })
})
