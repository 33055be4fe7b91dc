import { shouldApply, type StateReport } from './credential.states'

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 24, 10, 0, seconds))
const report = (state: string, seconds = 0): StateReport => ({ state, at: at(seconds) })

describe('shouldApply (issuance records never move backwards)', () => {
  it.each([
    { current: undefined, incoming: report('offer-sent'), expected: true, why: 'a new record' },
    { current: report('offer-sent', 1), incoming: report('request-received', 2), expected: true, why: 'forward' },
    { current: report('offer-sent', 1), incoming: report('done', 0), expected: true, why: 'forward, clock skew' },
    { current: report('request-received', 2), incoming: report('offer-sent', 3), expected: false, why: 'backwards' },
    { current: report('credential-issued', 3), incoming: report('request-received', 2), expected: false, why: 'late' },
    { current: report('offer-sent', 1), incoming: report('offer-sent', 2), expected: false, why: 'a repeat' },
    { current: report('done', 4), incoming: report('abandoned', 5), expected: false, why: 'done is terminal' },
    { current: report('abandoned', 4), incoming: report('done', 5), expected: false, why: 'abandoned is terminal' },
    { current: report('declined', 4), incoming: report('offer-sent', 5), expected: false, why: 'declined is terminal' },
    { current: report('request-received', 2), incoming: report('abandoned', 3), expected: true, why: 'a failure' },
    { current: report('offer-sent', 1), incoming: report('something-else', 9), expected: false, why: 'unknown state' },
    { current: undefined, incoming: report('something-else'), expected: false, why: 'unknown state, no record' },
  ])('$why: $current.state -> $incoming.state is $expected', ({ current, incoming, expected }) => {
    expect(shouldApply(current, incoming)).toBe(expected)
  })

  it('applies a same-rank correction only when it is newer', () => {
    expect(shouldApply(report('offer-sent', 1), report('offer-received', 2))).toBe(true)
    expect(shouldApply(report('offer-sent', 2), report('offer-received', 1))).toBe(false)
  })
})
