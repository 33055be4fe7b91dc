import { BASE_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS, retryDelayMs } from './backoff'

describe('retryDelayMs', () => {
  it.each([
    [1, BASE_RETRY_DELAY_MS],
    [2, BASE_RETRY_DELAY_MS * 2],
    [5, BASE_RETRY_DELAY_MS * 16],
    [40, MAX_RETRY_DELAY_MS],
  ])('caps attempt %i at %i ms', (attempts, cap) => {
    expect(retryDelayMs(attempts, () => 1)).toBe(cap)
    expect(retryDelayMs(attempts, () => 0)).toBe(BASE_RETRY_DELAY_MS / 2)
  })
})
