import { createHash } from 'node:crypto'

import type { AgentContext } from '@credo-ts/core'
import {
  OpenId4VcIssuanceSessionRepository,
  OpenId4VcIssuanceSessionState,
  OpenId4VcIssuerService,
} from '@credo-ts/openid4vc'
import type { NextFunction, Request, Response } from 'express'

/**
 * Wrong transaction codes one pre-authorized offer survives. Credo keeps an offer redeemable after any number of
 * them, so a 6-digit code falls to about 500,000 guesses on average; with this bound a guess succeeds with
 * probability 5 in 1,000,000 before the offer ends.
 */
export const TX_CODE_ATTEMPTS = 5

/** How many offers the guard remembers (failures and ended offers); the oldest are forgotten first. */
const REMEMBERED_OFFERS = 10_000

/** What Credo's token endpoint answers to a transaction code that is present and wrong (a missing one is not a guess). */
const WRONG_TX_CODE = /Invalid 'tx_code'/

export const TX_CODE_EXHAUSTED_MESSAGE = `More than ${TX_CODE_ATTEMPTS - 1} wrong transaction codes: the offer has ended`

interface TokenRequestBody {
  grant_type?: unknown
  'pre-authorized_code'?: unknown
  tx_code?: unknown
}

/**
 * Bounds the wrong transaction codes of a pre-authorized offer (a guard in front of Credo's token endpoint). The
 * failures are counted per offer in memory; at the bound the offer's issuance session ends in `error` (persisted, so
 * it stays ended after a restart, and the platform sees the end as for any exchange) and the guard answers every
 * later token request for it as an invalid grant without reaching Credo. A restart forgets the failures below the
 * bound: at most TX_CODE_ATTEMPTS - 1 more guesses per restart, which an attacker does not control.
 */
export class TxCodeAttempts {
  private readonly failures = new Map<string, number>()
  private readonly ended = new Set<string>()

  public readonly guard = (req: Request, res: Response, next: NextFunction): void => {
    const body = (req.body ?? {}) as TokenRequestBody
    const code = body['pre-authorized_code']
    if (typeof code !== 'string' || typeof body.tx_code !== 'string') return next()
    const offer = offerKey(String(req.params.issuerId), code)
    if (this.ended.has(offer)) {
      res.status(400).json({ error: 'invalid_grant', error_description: TX_CODE_EXHAUSTED_MESSAGE })
      return
    }
    // Credo answers from its handler; the answer tells whether the code was the wrong part.
    const send = res.json.bind(res)
    res.json = (answer: unknown) => {
      if (res.statusCode === 400 && isWrongTxCode(answer)) this.countFailure(req, offer, code)
      return send(answer)
    }
    next()
  }

  private countFailure(req: Request, offer: string, preAuthorizedCode: string): void {
    const count = (this.failures.get(offer) ?? 0) + 1
    remember(this.failures, offer, count)
    if (count < TX_CODE_ATTEMPTS) return
    this.failures.delete(offer)
    remember(this.ended, offer)
    // Credo's issuer routes set the request's agent context before their handlers run.
    const agentContext = (req as Request & { requestContext?: { agentContext?: AgentContext } }).requestContext
      ?.agentContext
    if (!agentContext) return
    endOffer(agentContext, preAuthorizedCode).catch((error: unknown) =>
      agentContext.config.logger.error('Could not end an offer after too many wrong transaction codes', { error }),
    )
  }
}

async function endOffer(agentContext: AgentContext, preAuthorizedCode: string): Promise<void> {
  const session = await agentContext.dependencyManager
    .resolve(OpenId4VcIssuanceSessionRepository)
    .findSingleByQuery(agentContext, { preAuthorizedCode })
  if (!session || session.state === OpenId4VcIssuanceSessionState.Error) return
  session.errorMessage = TX_CODE_EXHAUSTED_MESSAGE
  await agentContext.dependencyManager
    .resolve(OpenId4VcIssuerService)
    .updateState(agentContext, session, OpenId4VcIssuanceSessionState.Error)
}

function isWrongTxCode(answer: unknown): boolean {
  const { error, error_description: description } = (answer ?? {}) as Record<string, unknown>
  return error === 'invalid_grant' && typeof description === 'string' && WRONG_TX_CODE.test(description)
}

/** The code is a bearer secret: it is kept only as a hash. */
function offerKey(issuerId: string, preAuthorizedCode: string): string {
  return createHash('sha256').update(`${issuerId}\u0000${preAuthorizedCode}`).digest('base64url')
}

function remember<K>(store: Set<K>, key: K): void
function remember<K, V>(store: Map<K, V>, key: K, value: V): void
function remember<K, V>(store: Set<K> | Map<K, V>, key: K, value?: V): void {
  store.delete(key)
  if (store instanceof Map) store.set(key, value as V)
  else store.add(key)
  if (store.size > REMEMBERED_OFFERS) store.delete(store.keys().next().value as K)
}
