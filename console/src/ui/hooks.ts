import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { messageOf } from '../api/client'

export interface Loaded<T> {
  data: T | undefined
  error: string | undefined
  isLoading: boolean
  reload: () => void
}

/**
 * Loads data and keeps it current. With `pollMs`, reloads on that interval while the tab is visible and `keepPolling`
 * (given the last data) says so: states that change show up without a reload (docs/decisions.md, "Console: live
 * states by polling"). A failed reload keeps the last data and shows the error.
 */
export function useLoad<T>(
  loader: () => Promise<T>,
  deps: unknown[],
  options: { pollMs?: number; keepPolling?: (data: T) => boolean } = {},
): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const [isLoading, setLoading] = useState(true)
  const [tick, setTick] = useState(0)
  const loaderRef = useRef(loader)
  loaderRef.current = loader
  const optionsRef = useRef(options)
  optionsRef.current = options

  useEffect(() => {
    let isCurrent = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const run = async () => {
      try {
        const value = await loaderRef.current()
        if (!isCurrent) return
        setData(value)
        setError(undefined)
        const { pollMs, keepPolling } = optionsRef.current
        if (pollMs && (!keepPolling || keepPolling(value))) timer = setTimeout(poll, pollMs)
      } catch (failure) {
        if (!isCurrent) return
        setError(messageOf(failure))
        const { pollMs } = optionsRef.current
        if (pollMs) timer = setTimeout(poll, Math.max(pollMs, 5_000))
      } finally {
        if (isCurrent) setLoading(false)
      }
    }
    const poll = () => {
      if (document.visibilityState === 'hidden') timer = setTimeout(poll, 1_000)
      else void run()
    }
    setLoading(true)
    void run()
    return () => {
      isCurrent = false
      if (timer) clearTimeout(timer)
    }
  }, [...deps, tick])

  const reload = useCallback(() => setTick((value) => value + 1), [])
  return { data, error, isLoading, reload }
}

export interface Action {
  isBusy: boolean
  error: string | undefined
  message: string | undefined
  /** Runs `work`; its resolved string (if any) is shown as the success message. */
  run: (work: () => Promise<string | void>) => Promise<boolean>
  clear: () => void
}

/** A user action (a form submit, a button): busy while it runs, then the API's message or the success message. */
export function useAction(): Action {
  const [isBusy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const [message, setMessage] = useState<string | undefined>(undefined)
  const run = useCallback(async (work: () => Promise<string | void>) => {
    setBusy(true)
    setError(undefined)
    setMessage(undefined)
    try {
      const done = await work()
      if (typeof done === 'string') setMessage(done)
      return true
    } catch (failure) {
      setError(messageOf(failure))
      return false
    } finally {
      setBusy(false)
    }
  }, [])
  const clear = useCallback(() => {
    setError(undefined)
    setMessage(undefined)
  }, [])
  return { isBusy, error, message, run, clear }
}
