import { stateOrder, type StateOrder } from '../../infra/records/record-order'
import { CONNECTION_ORDER } from '../connections/connection.states'
import { ISSUANCE_ORDER } from '../credentials/credential.states'
import { PROOF_ORDER } from '../proofs/proof.states'
import type { WalletRecordKind } from './wallet-record.entity'

/**
 * The state orders of the wallet's record kinds (the organization modules' own, so both sides agree); a basic
 * message is stored once, in its direction.
 */
export const WALLET_RECORD_ORDERS: Readonly<Record<WalletRecordKind, StateOrder>> = {
  connection: CONNECTION_ORDER,
  credential: ISSUANCE_ORDER,
  proof: PROOF_ORDER,
  'basic-message': stateOrder({ sent: 0, received: 0 }, ['sent', 'received']),
}
