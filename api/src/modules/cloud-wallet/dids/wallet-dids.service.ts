import { injectable } from 'inversify'
import { InvalidInputError, NotImplementedError } from '@idplane/common'
import type { AgentDidMethod, CreatedDid, DidListEntry } from '@idplane/common/agent-contract/admin-api'
import type { Principal } from '../../../infra/auth/token.service'
import type { CreateWalletDidDto } from '../dto/wallet.dto'
import { WalletAccess } from '../wallet-access'
import { WalletLedger } from './wallet-ledger'

const AGENT_DID_METHODS: readonly string[] = ['key', 'peer', 'web', 'indy'] satisfies AgentDidMethod[]
/** Ledger methods the spec names that this platform has no ledger for (docs/decisions.md, "Cloud wallet"). */
const LEDGER_DID_METHODS: readonly string[] = ['polygon']

/**
 * `network` of an `indy` DID: the platform ledger is the only network, so absent, its namespace (`idplane`) or
 * that namespace in did:indy style (`did:indy:idplane`) are accepted, anything else is a 400 rather than a DID
 * silently written to another network than the one asked for.
 * @throws InvalidInputError naming `network`
 */
export function checkIndyNetwork(network: string | undefined, namespace: string): void {
  if (network === undefined) return
  const given = network.trim()
  if (given === namespace || given === `did:indy:${namespace}`) return
  throw new InvalidInputError(`Unknown network ${given}: this platform's ledger is ${namespace}`, [
    { field: 'network', message: `network must be ${namespace} (or did:indy:${namespace}) or absent` },
  ])
}

/**
 * What the API can tell of a DID to import before the agent sees the key: it comes with its key and is of the
 * method asked for. Whether the key is the DID's is the agent's check (it derives the key).
 * @throws InvalidInputError naming `did` or `privatekey`
 */
function checkImport(method: string, body: CreateWalletDidDto): void {
  if (body.seed === undefined && body.privatekey === undefined) {
    throw new InvalidInputError('Importing a DID needs its key: give seed or privatekey', [
      { field: 'privatekey', message: 'seed or privatekey is required with did' },
    ])
  }
  const did = (body.did ?? '').trim()
  if (!did.startsWith(`did:${method}:`)) {
    throw new InvalidInputError(`did must be a did:${method} (the method asked for)`, [
      { field: 'did', message: `must start with did:${method}:` },
    ])
  }
}

/** The cloud wallet's DIDs. */
@injectable()
export class WalletDidsService {
  public constructor(
    private readonly access: WalletAccess,
    private readonly ledger: WalletLedger,
  ) {}

  /**
   * Creates a DID, or imports `did` with its key (`seed` or `privatekey`): the agent checks that the key is the
   * DID's and stores it like every key it makes.
   * @throws NotImplementedError (501) for `polygon`
   * @throws InvalidInputError for another method, `web` without `domain`, `indy` on another `network`, or a `did`
   *   without its key, of another method, or not the key's (the agent's 400)
   */
  public async create(principal: Principal, body: CreateWalletDidDto): Promise<CreatedDid> {
    const method = body.method.trim().toLowerCase()
    if (LEDGER_DID_METHODS.includes(method)) {
      throw new NotImplementedError(`DID method ${method} needs a ledger this platform does not have`)
    }
    if (!AGENT_DID_METHODS.includes(method)) {
      throw new InvalidInputError('Unsupported DID method', [
        {
          field: 'method',
          message: `method must be one of ${[...AGENT_DID_METHODS, ...LEDGER_DID_METHODS].join(', ')}`,
        },
      ])
    }
    if (body.did !== undefined) checkImport(method, body)
    if (method === 'web' && !body.domain && body.did === undefined) {
      throw new InvalidInputError('domain is required for did:web', [
        { field: 'domain', message: 'domain is required' },
      ])
    }
    if (method === 'indy') checkIndyNetwork(body.network, this.ledger.namespace)
    // An imported did:indy names its network itself: it must be this platform's ledger too.
    if (method === 'indy' && body.did !== undefined)
      checkIndyNetwork(body.did.trim().split(':').slice(2, -1).join(':'), this.ledger.namespace)
    const tenant = await this.access.tenantOf(principal)
    return tenant.createDid({
      method: method as AgentDidMethod,
      keyType: body.keyType,
      ...(body.seed === undefined ? {} : { seed: body.seed }),
      ...(body.privatekey === undefined ? {} : { privatekey: body.privatekey }),
      ...(body.domain === undefined ? {} : { domain: body.domain }),
      ...(body.endpoint === undefined ? {} : { endpoint: body.endpoint }),
      ...(body.did === undefined ? {} : { did: body.did.trim() }),
    })
  }

  public async list(principal: Principal): Promise<DidListEntry[]> {
    return (await this.access.walletOf(principal)).agent.listDids()
  }
}
