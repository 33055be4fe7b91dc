import { DidKey, JsonTransformer, Kms, TypedArrayEncoder, utils } from '@credo-ts/core'
import {
  type CreateOutOfBandInvitationConfig,
  DidCommAttachment,
  DidCommHandshakeProtocol,
  type DidCommMessage,
  type DidCommMessageHandlerRegistry,
  replaceLegacyDidSovPrefix,
} from '@credo-ts/didcomm'
import { type FieldError, InvalidInputError } from '@idplane/common'
import { flattenValidationErrors, type ValidationErrorLike } from '@idplane/common/http-errors'

import type { CreateInvitationRequest } from '@idplane/common/agent-contract/admin-api'

export type Ed25519PublicKey = Kms.PublicJwk<Kms.Ed25519PublicJwk>

/** Which DIDComm service the invitation names; invitation-dids.ts turns it into `invitationDid`. */
export type InvitationService =
  /** Credo's default: a fresh key of this wallet, inline, on the agent's endpoints. */
  | { kind: 'fresh' }
  /** A DID of this wallet the caller named (`invitationDid`). */
  | { kind: 'did'; did: string }
  /** A key of this wallet the caller chose (`recipientKey`, `routing`); endpoints default to the agent's. */
  | { kind: 'key'; recipientKey: Ed25519PublicKey; endpoints?: string[]; routingKeys: Ed25519PublicKey[] }
  /** The wallet's standing invitation DID, the same for every such invitation (`IsReuseConnection`). */
  | { kind: 'reusable' }

export interface InvitationOptions {
  /** Everything Credo takes but the service. */
  config: Omit<CreateOutOfBandInvitationConfig, 'routing' | 'invitationDid'>
  service: InvitationService
}

export interface InvitationDefaults {
  label: string
  imageUrl?: string
  /** The agent's registry: a message's `@type` names the class that validates it. */
  messageClasses: Pick<DidCommMessageHandlerRegistry, 'getMessageClassForMessageType'>
}

/**
 * The HTTP body of `POST /oob/create-invitation` as Credo's options. Rules Credo would reject with a plain
 * error (and the route with a 500) are checked first and answered as 400s naming the fields.
 * @throws {InvalidInputError} for a malformed field or a combination Credo refuses
 */
export function toInvitationOptions(body: CreateInvitationRequest, defaults: InvitationDefaults): InvitationOptions {
  assertCombination(body)
  const messages = body.messages?.length ? toDidCommMessages(body.messages, defaults.messageClasses) : undefined
  return {
    config: {
      label: body.label ?? defaults.label,
      alias: body.alias,
      imageUrl: body.imageUrl ?? defaults.imageUrl,
      goalCode: body.goalCode,
      goal: body.goal,
      handshake: body.handshake ?? true,
      handshakeProtocols: body.handshakeProtocols?.map(toHandshakeProtocol),
      multiUseInvitation: body.multiUseInvitation ?? false,
      autoAcceptConnection: body.autoAcceptConnection ?? false,
      messages,
      appendedAttachments: body.appendedAttachments?.length
        ? toDidCommAttachments(body.appendedAttachments)
        : undefined,
    },
    service: toInvitationService(body),
  }
}

function assertCombination(body: CreateInvitationRequest): void {
  const fields: FieldError[] = []
  const hasMessages = (body.messages?.length ?? 0) > 0
  if (body.handshake === false && !hasMessages) {
    fields.push({ field: 'handshake', message: 'false needs at least one entry in messages' })
  }
  if (body.handshake === false && body.handshakeProtocols !== undefined) {
    fields.push({ field: 'handshakeProtocols', message: 'must not be set when handshake is false' })
  }
  if (hasMessages && body.multiUseInvitation === true) {
    fields.push({ field: 'multiUseInvitation', message: 'must not be true when messages are attached' })
  }
  if (body.invitationDid !== undefined && (body.recipientKey !== undefined || body.routing !== undefined)) {
    fields.push({ field: 'invitationDid', message: 'cannot be combined with recipientKey or routing' })
  }
  if (fields.length > 0) throw new InvalidInputError('These invitation options cannot be combined', fields)
}

function toInvitationService(body: CreateInvitationRequest): InvitationService {
  if (body.invitationDid !== undefined) return { kind: 'did', did: body.invitationDid }
  if (body.routing) {
    const recipientKey = parseEd25519PublicKey(body.routing.recipientKey, 'routing.recipientKey')
    if (
      body.recipientKey !== undefined &&
      !parseEd25519PublicKey(body.recipientKey, 'recipientKey').equals(recipientKey)
    ) {
      throw new InvalidInputError('recipientKey and routing.recipientKey differ', [
        { field: 'recipientKey', message: 'must be the key of routing.recipientKey when both are set' },
      ])
    }
    return {
      kind: 'key',
      recipientKey,
      endpoints: body.routing.endpoints,
      routingKeys: (body.routing.routingKeys ?? []).map((key, index) =>
        parseEd25519PublicKey(key, `routing.routingKeys[${index}]`),
      ),
    }
  }
  if (body.recipientKey !== undefined) {
    return { kind: 'key', recipientKey: parseEd25519PublicKey(body.recipientKey, 'recipientKey'), routingKeys: [] }
  }
  return body.IsReuseConnection === true ? { kind: 'reusable' } : { kind: 'fresh' }
}

/**
 * An Ed25519 public key as base58 (the encoding of DIDComm v1 envelopes and of credo-controller's
 * `recipientKey`) or as a did:key.
 * @throws {InvalidInputError} for anything else
 */
export function parseEd25519PublicKey(value: string, field: string): Ed25519PublicKey {
  const invalid = (cause?: unknown) =>
    new InvalidInputError(
      `${field} is not an Ed25519 public key`,
      [{ field, message: 'must be a base58 Ed25519 public key or a did:key of one' }],
      { cause },
    )
  let publicJwk: Kms.PublicJwk
  try {
    publicJwk = value.startsWith('did:') ? DidKey.fromDid(value).publicJwk : fromBase58(value)
  } catch (error) {
    throw invalid(error)
  }
  if (!publicJwk.is(Kms.Ed25519PublicJwk)) throw invalid()
  return publicJwk
}

function fromBase58(value: string): Kms.PublicJwk {
  const publicKey = TypedArrayEncoder.fromBase58(value)
  if (publicKey.length !== 32) throw new Error(`An Ed25519 public key has 32 bytes, not ${publicKey.length}`)
  return Kms.PublicJwk.fromPublicKey({ kty: 'OKP', crv: 'Ed25519', publicKey })
}

/**
 * Plain DIDComm v1 messages as instances of the classes this agent registered for their `@type`, validated the
 * way a receiving agent validates them. `~thread.pthid` is refused: Credo's receiver sets it to the invitation id,
 * which does not exist yet, and refuses the invitation if it differs.
 * @throws {InvalidInputError} for a missing, malformed or unknown `@type`, or a message its class rejects
 */
export function toDidCommMessages(
  messages: Record<string, unknown>[],
  messageClasses: InvitationDefaults['messageClasses'],
): DidCommMessage[] {
  return messages.map((json, index) => toDidCommMessage(json, `messages[${index}]`, messageClasses))
}

function toDidCommMessage(
  json: Record<string, unknown>,
  field: string,
  messageClasses: InvitationDefaults['messageClasses'],
): DidCommMessage {
  const type = json['@type']
  if (typeof type !== 'string') {
    throw new InvalidInputError(`${field} has no @type`, [
      { field: `${field}.@type`, message: 'must be a DIDComm message type URI' },
    ])
  }
  const normalizedType = replaceLegacyDidSovPrefix(type)
  let MessageClass: typeof DidCommMessage | undefined
  try {
    MessageClass = messageClasses.getMessageClassForMessageType(normalizedType)
  } catch (error) {
    throw new InvalidInputError(
      `${field} has a malformed @type`,
      [{ field: `${field}.@type`, message: 'must be a DIDComm message type URI' }],
      { cause: error },
    )
  }
  if (!MessageClass) {
    throw new InvalidInputError(`${field} has a @type this agent does not handle`, [
      { field: `${field}.@type`, message: 'must be a message type of a protocol this agent supports' },
    ])
  }
  const thread = json['~thread']
  if (typeof thread === 'object' && thread !== null && 'pthid' in thread) {
    throw new InvalidInputError(`${field} sets ~thread.pthid`, [
      { field: `${field}.~thread.pthid`, message: 'must not be set; the invitation becomes the parent thread' },
    ])
  }
  return fromJson(`${field} is not a valid ${MessageClass.type.messageName} message`, field, () =>
    JsonTransformer.fromJSON({ ...json, '@type': normalizedType }, MessageClass),
  )
}

/**
 * RFC 0017 attachments (`@id`, `mime-type`, `data` with `base64`, `json` or `links`, ...) as Credo's class;
 * an attachment without `@id` gets one.
 * @throws {InvalidInputError} for an attachment Credo's class rejects, one without content, or bad base64
 */
export function toDidCommAttachments(attachments: Record<string, unknown>[]): DidCommAttachment[] {
  return attachments.map((json, index) => toDidCommAttachment(json, `appendedAttachments[${index}]`))
}

const BASE64 = /^(?:[A-Za-z0-9+/]*={0,2}|[A-Za-z0-9_-]*={0,2})$/

function toDidCommAttachment(json: Record<string, unknown>, field: string): DidCommAttachment {
  if (json['@id'] !== undefined && (typeof json['@id'] !== 'string' || json['@id'] === '')) {
    throw new InvalidInputError(`${field} has a bad @id`, [{ field: `${field}.@id`, message: 'must be a string' }])
  }
  const attachment = fromJson(`${field} is not a valid attachment`, field, () =>
    JsonTransformer.fromJSON(json, DidCommAttachment),
  )
  attachment.id ??= utils.uuid()
  const { base64, json: data, links } = attachment.data
  if (base64 === undefined && (data === undefined || data === null) && !links?.length) {
    throw new InvalidInputError(`${field} has no content`, [
      { field: `${field}.data`, message: 'must hold base64, json or links' },
    ])
  }
  if (base64 !== undefined && (base64.length % 4 === 1 || !BASE64.test(base64))) {
    throw new InvalidInputError(`${field} has bad base64 data`, [
      { field: `${field}.data.base64`, message: 'must be base64 or base64url' },
    ])
  }
  return attachment
}

/** Runs a Credo JSON transform of caller input; any failure there is the caller's, so a 400. */
function fromJson<T>(message: string, field: string, transform: () => T): T {
  try {
    return transform()
  } catch (error) {
    const validationErrors = (error as { validationErrors?: ValidationErrorLike[] }).validationErrors
    const fields = validationErrors?.length
      ? flattenValidationErrors(validationErrors, field)
      : [{ field, message: 'is malformed' }]
    throw new InvalidInputError(message, fields, { cause: error })
  }
}

/** Credo's handshake protocol URIs (`https://didcomm.org/didexchange/1.x`, `https://didcomm.org/connections/1.x`). */
function toHandshakeProtocol(value: string): DidCommHandshakeProtocol {
  const known = Object.values(DidCommHandshakeProtocol) as string[]
  if (!known.includes(value)) {
    throw new InvalidInputError('Unknown handshake protocol', [
      { field: 'handshakeProtocols', message: `must be one of ${known.join(', ')}` },
    ])
  }
  return value as DidCommHandshakeProtocol
}
