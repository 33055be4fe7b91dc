import { MIN_STATUS_LIST_SIZE } from '@idplane/common/bitstring-status-list'
import type { ConfigSection } from '../../infra/config-section'

export interface StatusListsConfig {
  /** STATUS_LIST_SIZE: entries of each status list the API creates, Bitstring or Token (a multiple of 8). */
  size: number
}

/** @default 131,072, the specification's minimum (16 KiB before compression). */
export const DEFAULT_STATUS_LIST_SIZE = MIN_STATUS_LIST_SIZE

export const statusListsConfig: ConfigSection<StatusListsConfig> = {
  name: 'status-lists',
  read: (env) => {
    const size = env.int('STATUS_LIST_SIZE', DEFAULT_STATUS_LIST_SIZE, {
      min: MIN_STATUS_LIST_SIZE,
      max: 8 * MIN_STATUS_LIST_SIZE * 8,
    })
    // A bitstring is whole bytes: round up to a multiple of 8.
    return { size: Math.ceil(size / 8) * 8 }
  },
}
