/** Resolves true when every task settled, false when `timeoutMs` passed first. */
export async function waitAll(tasks: Iterable<Promise<void>>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  try {
    return await Promise.race([Promise.allSettled([...tasks]).then(() => true as const), timeout])
  } finally {
    clearTimeout(timer)
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
