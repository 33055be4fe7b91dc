// The signed-in session. The access token lives only in this module's memory (never in storage, URLs or logs); the
// refresh token is an HttpOnly cookie scoped to /v1/auth/session that script cannot read (spec, Authentication 10;
// docs/decisions.md, "Console sessions"). Expiry is handled silently: the token is renewed a minute before it ends,
// and a request answered 401 renews it once and is retried.

import { api } from './client'

export interface SessionState {
  /** Whether the first restore (cookie → access token) has finished. */
  isReady: boolean
  isSignedIn: boolean
}

interface TokenAnswer {
  data?: { access_token?: string; expires_in?: number }
}
/** Renew this long before the access token expires. */
const RENEW_EARLY_MS = 60_000

let accessToken: string | undefined
let renewTimer: ReturnType<typeof setTimeout> | undefined
let state: SessionState = { isReady: false, isSignedIn: false }
const listeners = new Set<(state: SessionState) => void>()
let pendingRefresh: Promise<boolean> | undefined

export function sessionState(): SessionState {
  return state
}

export function onSessionChange(listener: (state: SessionState) => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function currentAccessToken(): string | undefined {
  return accessToken
}

function publish(next: SessionState): void {
  state = next
  for (const listener of listeners) listener(state)
}

function adopt(answer: TokenAnswer): void {
  accessToken = answer.data?.access_token
  if (renewTimer) clearTimeout(renewTimer)
  const lifetimeMs = (answer.data?.expires_in ?? 0) * 1000
  if (accessToken && lifetimeMs > 0) {
    renewTimer = setTimeout(() => void refreshSession(), Math.max(5_000, lifetimeMs - RENEW_EARLY_MS))
  }
  publish({ isReady: true, isSignedIn: accessToken !== undefined })
}

function forget(): void {
  accessToken = undefined
  if (renewTimer) clearTimeout(renewTimer)
  renewTimer = undefined
  publish({ isReady: true, isSignedIn: false })
}

/** Signs in; resolves with the API's message on failure, undefined on success. */
export async function signIn(email: string, password: string): Promise<string | undefined> {
  const answer = await api.POST('/v1/auth/session', { body: { email, password } })
  if (!answer.data) return answer.error?.message ?? `Sign-in failed (${answer.response.status})`
  adopt(answer.data)
  return undefined
}

/**
 * Renews the access token with the session cookie. Tabs of one browser share the cookie and the API treats a refresh
 * token used twice as stolen, so renewals are serialized across tabs with a Web Lock; calls in one tab share one.
 */
export function refreshSession(): Promise<boolean> {
  pendingRefresh ??= withRefreshLock(async () => {
    const answer = await api.POST('/v1/auth/session/refresh')
    if (!answer.data) {
      forget()
      return false
    }
    adopt(answer.data)
    return true
  })
    .catch(() => {
      forget()
      return false
    })
    .finally(() => {
      pendingRefresh = undefined
    })
  return pendingRefresh
}

function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks
  return locks ? locks.request('idplane-session-refresh', work).then((inner) => inner) : work()
}

/** Ends the session on the server (its refresh and access tokens) and forgets the token here. */
export async function signOut(): Promise<void> {
  await api.DELETE('/v1/auth/session').catch(() => undefined)
  forget()
}

/** At start-up: a cookie left by an earlier visit gives a new access token without signing in again. */
export function restoreSession(): Promise<boolean> {
  return refreshSession()
}
