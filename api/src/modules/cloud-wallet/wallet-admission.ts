import type { NextFunction, Request, Response } from 'express'
import { inject, injectable } from 'inversify'
import type { ExpressMiddlewareInterface } from 'routing-controllers'
import { ConcurrencyGate } from '../../infra/auth/concurrency-gate'
import { bearerToken } from '../../infra/auth/authorization'
import { TokenService, type Principal } from '../../infra/auth/token.service'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { cloudWalletConfig } from './cloud-wallet.config'
import { CLOUD_WALLET_METRICS, type CloudWalletMetrics } from './cloud-wallet-metrics'

/**
 * Holders' requests in progress at once in this process (CLOUD_WALLET_CONCURRENCY); the rest wait their turn, one
 * holder after another, and past the queue's bound get a 429 with Retry-After.
 *
 * Why: every wallet request goes through to the one base agent and writes the holder's records, and a crowd of
 * holders polling their wallets (100 holders twice a second) kept the API's one thread so busy that the agents'
 * events, which the organizations' records and webhooks wait for, queued behind the polls for seconds. The agent
 * event routes are not gated, so they overtake the holders' queue (docs/decisions.md, "Holders take turns").
 *
 * The caller's token is checked here so that the turn is per holder and an unauthenticated request never holds a
 * place; a request without a valid one goes on ungated to the route's own check, which answers 401.
 */
@injectable()
export class WalletAdmission implements ExpressMiddlewareInterface {
  private readonly gate: ConcurrencyGate

  public constructor(
    @inject(TokenService) private readonly tokens: TokenService,
    @inject(CLOUD_WALLET_METRICS) private readonly metrics: CloudWalletMetrics,
    @inject(TOKENS.Config) config: Config,
  ) {
    const { concurrency, queueMax } = sectionOf(config, cloudWalletConfig)
    this.gate = new ConcurrencyGate({
      concurrency,
      maxQueued: queueMax,
      // A wallet app reads a few lists at once; one holder's burst never takes every slot or the whole queue.
      maxRunningPerClient: Math.max(1, Math.ceil(concurrency / 4)),
      maxQueuedPerClient: Math.max(1, Math.ceil(queueMax / 20)),
      busyMessage: 'Too many cloud-wallet requests at once; try again in a moment',
    })
    metrics.observeAdmission(() => this.gate.stats)
  }

  public use(req: Request, res: Response, next: NextFunction): void {
    const principal = this.principalOf(req)
    if (principal?.kind !== 'user') {
      next()
      return
    }
    // The route's authorization check takes the principal verified here instead of verifying the token again.
    req.principal = principal
    const waiting = this.metrics.admissionWait.startTimer()
    // The turn lasts until the response closes; a client that gives up while queued frees its place when its turn
    // comes, without running the route.
    let closed = false
    const finished = new Promise<void>((resolve) =>
      res.once('close', () => {
        closed = true
        resolve()
      }),
    )
    let admitted = false
    this.gate
      .run(async () => {
        admitted = true
        waiting({ result: closed ? 'abandoned' : 'admitted' })
        if (closed) return
        next()
        await finished
      }, principal.userId)
      .catch((error: unknown) => {
        // Only a refusal rejects (queue full): an admitted request has been handed to the route already.
        if (admitted) return
        waiting({ result: 'refused' })
        next(error)
      })
  }

  private principalOf(req: Request): Principal | undefined {
    try {
      return this.tokens.verify(bearerToken(req))
    } catch {
      return undefined
    }
  }
}
