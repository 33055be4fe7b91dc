import {
  AnonCredsCredentialRecord,
  AnonCredsCredentialRepository,
  type AnonCredsHolderService,
  AnonCredsHolderServiceSymbol,
  type AnonCredsIssuerService,
  AnonCredsIssuerServiceSymbol,
  AnonCredsLinkSecretRepository,
  type AnonCredsProofRequest,
  type AnonCredsVerifierService,
  AnonCredsVerifierServiceSymbol,
} from '@credo-ts/anoncreds'

import { AnonCredsDataIntegrityServiceSymbol } from '@credo-ts/core'

import { AnonCredsError, encodeCredentialAttribute } from '../../agent/src/anoncreds'
import { startInProcessAgent, type InProcessAgent } from '../helpers/agent-in-process'

/**
 * Our AnonCreds services as Credo resolves them in a real agent (its storage, its registry service, the test
 * registry in memory): one agent plays issuer, holder and verifier, so no DIDComm is involved. The DIDComm flows
 * between two agent processes are in test/e2e/anoncreds-flows.e2e.test.ts.
 */
describe('AnonCreds services in a Credo agent', () => {
  let agent: InProcessAgent
  let issuerService: AnonCredsIssuerService
  let holderService: AnonCredsHolderService
  let verifierService: AnonCredsVerifierService
  let schemaId: string
  let credentialDefinitionId: string
  let issuerId: string

  beforeAll(async () => {
    agent = await startInProcessAgent()
    const resolve = agent.agent.dependencyManager
    issuerService = resolve.resolve<AnonCredsIssuerService>(AnonCredsIssuerServiceSymbol)
    holderService = resolve.resolve<AnonCredsHolderService>(AnonCredsHolderServiceSymbol)
    verifierService = resolve.resolve<AnonCredsVerifierService>(AnonCredsVerifierServiceSymbol)
    const did = await agent.agent.dids.create({
      method: 'key',
      options: { createKey: { type: { kty: 'OKP', crv: 'Ed25519' } } },
    })
    issuerId = did.didState.did as string
    const schema = await agent.agent.modules.anoncreds.registerSchema({
      schema: { issuerId, name: 'employee', version: '2.1', attrNames: ['name', 'role', 'salary'] },
      options: {},
    })
    schemaId = schema.schemaState.schemaId as string
    const definition = await agent.agent.modules.anoncreds.registerCredentialDefinition({
      credentialDefinition: { issuerId, schemaId, tag: 'payroll' },
      options: { supportRevocation: false },
    })
    expect(definition.credentialDefinitionState.state).toBe('finished')
    credentialDefinitionId = definition.credentialDefinitionState.credentialDefinitionId as string
  })

  afterAll(async () => {
    await agent?.close()
  })

  it('uses our services, not the anoncreds-rs ones', () => {
    expect(issuerService.constructor.name).toBe('IdplaneAnonCredsIssuerService')
    expect(holderService.constructor.name).toBe('IdplaneAnonCredsHolderService')
    expect(verifierService.constructor.name).toBe('IdplaneAnonCredsVerifierService')
    // anoncreds-rs' W3C data-integrity service would call the absent native binding.
    expect(agent.agent.dependencyManager.isRegistered(AnonCredsDataIntegrityServiceSymbol)).toBe(false)
    expect(Object.keys(require.cache).some((file) => file.includes('anoncreds-nodejs'))).toBe(false)
  })

  async function issueAndStore(values: Record<string, string>) {
    const context = agent.agent.context
    const offer = await issuerService.createCredentialOffer(context, { credentialDefinitionId })
    const { credentialDefinition } = (await agent.agent.modules.anoncreds.getCredentialDefinition(
      credentialDefinitionId,
    )) as unknown as { credentialDefinition: never }
    const { credentialRequest, credentialRequestMetadata } = await holderService.createCredentialRequest(context, {
      credentialOffer: offer,
      credentialDefinition,
    })
    const credentialValues = Object.fromEntries(
      Object.entries(values).map(([name, raw]) => [name, { raw, encoded: encodeCredentialAttribute(raw) }]),
    )
    const { credential } = await issuerService.createCredential(context, {
      credentialOffer: offer,
      credentialRequest,
      credentialValues,
    })
    const schema = (await agent.agent.modules.anoncreds.getSchema(schemaId)).schema as never
    return holderService.storeCredential(context, {
      credential,
      credentialDefinition,
      credentialDefinitionId,
      credentialRequestMetadata,
      schema,
    })
  }

  it('stores a processed credential as an AnonCredsCredentialRecord with the restriction tags', async () => {
    const credentialId = await issueAndStore({ name: 'Ada', role: 'engineer', salary: '5000' })
    const record = await agent.agent.dependencyManager
      .resolve(AnonCredsCredentialRepository)
      .getByCredentialId(agent.agent.context, credentialId)
    expect(record).toBeInstanceOf(AnonCredsCredentialRecord)
    expect(record.getTags()).toMatchObject({
      credentialDefinitionId,
      schemaId,
      issuerId,
      schemaIssuerId: issuerId,
      schemaName: 'employee',
      schemaVersion: '2.1',
      methodName: 'idplane-test',
      'attr::name::value': 'Ada',
      'attr::name::marker': true,
      'attr::salary::value': '5000',
    })
    // The link secret the request used was created as the default one.
    const linkSecret = await agent.agent.dependencyManager
      .resolve(AnonCredsLinkSecretRepository)
      .findDefault(agent.agent.context)
    expect(record.linkSecretId).toBe(linkSecret?.linkSecretId)
    expect((await holderService.getCredential(agent.agent.context, { id: credentialId })).attributes).toEqual({
      name: 'Ada',
      role: 'engineer',
      salary: '5000',
    })
  })

  it('refuses a credential whose signature does not match its values', async () => {
    const context = agent.agent.context
    const offer = await issuerService.createCredentialOffer(context, { credentialDefinitionId })
    const { credentialDefinition } = (await agent.agent.modules.anoncreds.getCredentialDefinition(
      credentialDefinitionId,
    )) as unknown as { credentialDefinition: never }
    const request = await holderService.createCredentialRequest(context, {
      credentialOffer: offer,
      credentialDefinition,
    })
    const { credential } = await issuerService.createCredential(context, {
      credentialOffer: offer,
      credentialRequest: request.credentialRequest,
      credentialValues: {
        name: { raw: 'Eve', encoded: '1' },
        role: { raw: 'x', encoded: '2' },
        salary: { raw: '1', encoded: '1' },
      },
    })
    credential.values.salary = { raw: '999999', encoded: '999999' }
    const schema = (await agent.agent.modules.anoncreds.getSchema(schemaId)).schema as never
    await expect(
      holderService.storeCredential(context, {
        credential,
        credentialDefinition,
        credentialDefinitionId,
        credentialRequestMetadata: request.credentialRequestMetadata,
        schema,
      }),
    ).rejects.toBeInstanceOf(AnonCredsError)
  })

  it('finds credentials by restriction and proves attributes, a group and predicates that verify', async () => {
    await issueAndStore({ name: 'Grace', role: 'admiral', salary: '9000' })
    const context = agent.agent.context
    const proofRequest: AnonCredsProofRequest = {
      name: 'payroll',
      version: '1.0',
      nonce: holderService.generateNonce(context),
      requested_attributes: {
        who: {
          name: 'name',
          restrictions: [
            { cred_def_id: credentialDefinitionId, 'attr::name::value': 'Grace', 'attr::role::marker': '1' },
          ],
        },
        job: { names: ['role', 'name'], restrictions: [{ schema_name: 'employee', schema_version: '2.1' }] },
      },
      requested_predicates: {
        rich: { name: 'salary', p_type: '>', p_value: 8000, restrictions: [{ issuer_id: issuerId }] },
        capped: {
          name: 'salary',
          p_type: '<=',
          p_value: 10000,
          restrictions: [{ issuer_id: issuerId, cred_def_id: credentialDefinitionId }],
        },
      },
    }
    const find = (referent: string) =>
      holderService.getCredentialsForProofRequest(context, { proofRequest, attributeReferent: referent })
    const who = await find('who')
    expect(who.map((match) => match.credentialInfo.attributes.name)).toEqual(['Grace'])
    expect((await find('job')).length).toBe(2)
    const nobody = await holderService.getCredentialsForProofRequest(context, {
      proofRequest: {
        ...proofRequest,
        requested_attributes: { who: { name: 'name', restrictions: [{ schema_name: 'other' }] } },
      },
      attributeReferent: 'who',
    })
    expect(nobody).toEqual([])

    const grace = who[0].credentialInfo.credentialId
    const proof = await holderService.createProof(context, {
      proofRequest,
      selectedCredentials: {
        attributes: {
          who: { credentialId: grace, revealed: true, credentialInfo: who[0].credentialInfo },
          job: { credentialId: grace, revealed: true, credentialInfo: who[0].credentialInfo },
        },
        predicates: {
          rich: { credentialId: grace, credentialInfo: who[0].credentialInfo },
          capped: { credentialId: grace, credentialInfo: who[0].credentialInfo },
        },
        selfAttestedAttributes: {},
      },
      schemas: { [schemaId]: (await agent.agent.modules.anoncreds.getSchema(schemaId)).schema as never },
      credentialDefinitions: {
        [credentialDefinitionId]: (await agent.agent.modules.anoncreds.getCredentialDefinition(credentialDefinitionId))
          .credentialDefinition as never,
      },
      revocationRegistries: {},
    })
    expect(proof.requested_proof.revealed_attrs.who.raw).toBe('Grace')
    const verify = (request: AnonCredsProofRequest) =>
      verifierService.verifyProof(context, {
        proofRequest: request,
        proof,
        schemas: Object.fromEntries(proof.identifiers.map((id) => [id.schema_id, {} as never])),
        credentialDefinitions: {},
        revocationRegistries: {},
      })
    // The verifier needs the real objects: with empty ones it answers false instead of throwing.
    expect(await verify(proofRequest)).toBe(false)
    const verified = await verifierService.verifyProof(context, {
      proofRequest,
      proof,
      schemas: { [schemaId]: (await agent.agent.modules.anoncreds.getSchema(schemaId)).schema as never },
      credentialDefinitions: {
        [credentialDefinitionId]: (await agent.agent.modules.anoncreds.getCredentialDefinition(credentialDefinitionId))
          .credentialDefinition as never,
      },
      revocationRegistries: {},
    })
    expect(verified).toBe(true)
  })
})
