import {
  type BaseRecord,
  type BaseRecordConstructor,
  DidRecord,
  JsonTransformer,
  W3cCredentialRecord,
} from '@credo-ts/core'
import {
  DidCommAutoAcceptCredential,
  DidCommConnectionRecord,
  DidCommCredentialExchangeRecord,
  DidCommCredentialState,
  DidCommDidExchangeState,
  DidCommMessageRecord,
  DidCommOutOfBandRecord,
  DidCommProofExchangeRecord,
  DidCommProofState,
} from '@credo-ts/didcomm'

import { cloneInstance } from '../../agent/src/credo/clone-instance'
import { withSuiteContext } from '../../agent/src/formats/jsonld/suite-context'
import { startInProcessAgent, type InProcessAgent } from '../helpers/agent-in-process'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../fixtures/degree-credential'
import { expectSameShape } from '../helpers/same-shape'

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('agent protocols (two agents, HTTP on 127.0.0.1)', () => {
  let issuer: InProcessAgent
  let holder: InProcessAgent

  beforeAll(async () => {
    issuer = await startInProcessAgent()
    holder = await startInProcessAgent()
  })

  afterAll(async () => {
    await holder?.close()
    await issuer?.close()
  })

  it('connects, issues a JSON-LD credential and verifies a presentation', async () => {
    const oob = await issuer.agent.didcomm.oob.createInvitation({ label: 'issuer', autoAcceptConnection: true })
    const { connectionRecord } = await holder.agent.didcomm.oob.receiveInvitation(oob.outOfBandInvitation, {
      label: 'holder',
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    if (!connectionRecord) throw new Error('no connection')
    const holderConnection = await holder.agent.didcomm.connections.returnWhenIsConnected(connectionRecord.id, {
      timeoutMs: 20000,
    })
    expect(holderConnection.state).toBe(DidCommDidExchangeState.Completed)
    const [issuerConnection] = await issuer.agent.didcomm.connections.findAllByOutOfBandId(oob.id)

    const ed25519 = { createKey: { type: { kty: 'OKP' as const, crv: 'Ed25519' as const } } }
    const issuerDid = await issuer.agent.dids.create({ method: 'key', options: ed25519 })
    const holderDid = await holder.agent.dids.create({ method: 'key', options: ed25519 })
    const issuerDidValue = String(issuerDid.didState.did)
    const holderDidValue = String(holderDid.didState.did)
    expect(issuerDidValue).toMatch(/^did:key:z6Mk/)

    for (const proofType of ['Ed25519Signature2018', 'Ed25519Signature2020']) {
      const offer = await issuer.agent.didcomm.credentials.offerCredential({
        connectionId: issuerConnection.id,
        protocolVersion: 'v2',
        autoAcceptCredential: DidCommAutoAcceptCredential.ContentApproved,
        credentialFormats: {
          jsonld: {
            credential: withSuiteContext(
              aDegreeCredential(issuerDidValue, holderDidValue, `BSc ${proofType}`),
              proofType,
            ),
            options: signingOptions(proofType),
          },
        },
      })
      const holderRecord = await waitFor(async () => {
        const [record] = await holder.agent.didcomm.credentials.findAllByQuery({ threadId: offer.threadId })
        return record?.state === DidCommCredentialState.OfferReceived ? record : undefined
      })
      await holder.agent.didcomm.credentials.acceptOffer({
        credentialExchangeRecordId: holderRecord.id,
        autoAcceptCredential: DidCommAutoAcceptCredential.ContentApproved,
      })
      await waitFor(async () => {
        const record = await holder.agent.didcomm.credentials.getById(holderRecord.id)
        return record.state === DidCommCredentialState.Done ? record : undefined
      })
    }
    expect(await holder.agent.w3cCredentials.getAll()).toHaveLength(2)

    /** Requests a proof, lets the holder answer with its selection, and returns the verifier's record. */
    const requestAndPresent = async (fields?: Parameters<typeof aDegreePresentationDefinition>[0]) => {
      const request = await issuer.agent.didcomm.proofs.requestProof({
        connectionId: issuerConnection.id,
        protocolVersion: 'v2',
        proofFormats: { presentationExchange: { presentationDefinition: aDegreePresentationDefinition(fields) } },
      })
      const holderProof = await waitFor(async () => {
        const [record] = await holder.agent.didcomm.proofs.findAllByQuery({ threadId: request.threadId })
        return record?.state === DidCommProofState.RequestReceived ? record : undefined
      })
      const candidates = await holder.agent.didcomm.proofs.getCredentialsForRequest({
        proofExchangeRecordId: holderProof.id,
      })
      const selected = await holder.agent.didcomm.proofs.selectCredentialsForRequest({
        proofExchangeRecordId: holderProof.id,
      })
      await holder.agent.didcomm.proofs.acceptRequest({
        proofExchangeRecordId: holderProof.id,
        proofFormats: selected.proofFormats,
      })
      const verified = await waitFor(async () => {
        const record = await issuer.agent.didcomm.proofs.getById(request.id)
        return record.state === DidCommProofState.PresentationReceived ? record : undefined
      })
      const [requirement] = candidates.proofFormats.presentationExchange?.requirements ?? []
      return { verified, offered: requirement.submissionEntry[0].verifiableCredentials.length }
    }

    const any = await requestAndPresent()
    expect(any.verified.isVerified).toBe(true)
    expect(any.offered).toBe(2)

    // A request only one credential can answer: the holder's candidates are narrowed before PEX
    // (candidate-prefilter.ts), and the selection and the verification are what PEX alone gives.
    const narrow = await requestAndPresent([
      { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: 'BSc Ed25519Signature2018' } },
    ])
    expect(narrow.verified.isVerified).toBe(true)
    expect(narrow.offered).toBe(1)
    const presented = await issuer.agent.didcomm.proofs.getFormatData(narrow.verified.id)
    expect(JSON.stringify(presented.presentation)).toContain('BSc Ed25519Signature2018')
    expect(JSON.stringify(presented.presentation)).not.toContain('BSc Ed25519Signature2020')
  }, 60000)

  // The storage hands out copies of one parsed instance per record version (clone-instance.ts); this checks, on every
  // record the flows above stored, that a copy is what parsing the stored JSON again gives.
  it('copies every stored record type exactly as parsing it again would', async () => {
    const classes = new Map<string, BaseRecordConstructor<BaseRecord>>(
      [
        DidCommConnectionRecord,
        DidCommCredentialExchangeRecord,
        DidCommProofExchangeRecord,
        DidCommOutOfBandRecord,
        DidCommMessageRecord,
        DidRecord,
        W3cCredentialRecord,
      ].map((recordClass) => [recordClass.type, recordClass as unknown as BaseRecordConstructor<BaseRecord>]),
    )
    const seen = new Set<string>()
    for (const side of [issuer, holder]) {
      const { rows } = await side.sql.query<{ type: string; value: string }>(
        'SELECT type, value::text AS value FROM records',
      )
      for (const row of rows) {
        const recordClass = classes.get(row.type)
        if (!recordClass) continue
        const parsed = JsonTransformer.fromJSON(JSON.parse(row.value) as object, recordClass)
        expectSameShape(cloneInstance(parsed), parsed)
        expect(JsonTransformer.toJSON(cloneInstance(parsed))).toEqual(JsonTransformer.toJSON(parsed))
        seen.add(row.type)
      }
    }
    expect([...seen].sort()).toEqual([...classes.keys()].sort())
  })
})
