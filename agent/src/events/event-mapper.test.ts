import { DidCommConnectionRecord, DidCommProofExchangeRecord } from '@credo-ts/didcomm'

import { AGENT_EVENT_KINDS } from '@idplane/common/agent-contract/events'

import { FORWARDED_RECORD_TYPES } from './event-mapper'

describe('FORWARDED_RECORD_TYPES', () => {
  it("names Credo's record types by their stored type", () => {
    expect(FORWARDED_RECORD_TYPES[DidCommConnectionRecord.type]).toBe('connection')
    expect(FORWARDED_RECORD_TYPES[DidCommProofExchangeRecord.type]).toBe('proof')
    expect(Object.values(FORWARDED_RECORD_TYPES).sort()).toEqual([...AGENT_EVENT_KINDS].sort())
  })
})
