import { useEffect, useState } from 'preact/hooks'

/** Where the API serves the console (api/src/modules/console/console.router.ts). */
export const BASE = '/console'

const listeners = new Set<() => void>()

/** The current path inside the console: `/orgs/<id>/agent` for `/console/orgs/<id>/agent`. */
export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname
  return path === '' ? '/' : path
}

export function hrefOf(path: string): string {
  return `${BASE}${path}`
}

/** Moves to a console path without reloading (query included, e.g. `/wallet/receive?oob=...`). */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const target = hrefOf(path)
  if (options.replace) history.replaceState(null, '', target)
  else history.pushState(null, '', target)
  for (const listener of listeners) listener()
  window.scrollTo(0, 0)
}

addEventListener('popstate', () => {
  for (const listener of listeners) listener()
})

/** Re-renders the caller when the path changes; returns the path. */
export function usePath(): string {
  const [path, setPath] = useState(currentPath())
  useEffect(() => {
    const update = () => setPath(currentPath())
    listeners.add(update)
    return () => void listeners.delete(update)
  }, [])
  return path
}

/** `/orgs/:orgId/connections/:id` against a path: the parameters, or undefined when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const wanted = pattern.split('/')
  const actual = path.split('/')
  if (wanted.length !== actual.length) return undefined
  const params: Record<string, string> = {}
  for (let index = 0; index < wanted.length; index++) {
    const part = wanted[index] ?? ''
    const value = actual[index] ?? ''
    if (part.startsWith(':')) {
      if (value === '') return undefined
      params[part.slice(1)] = decodeURIComponent(value)
    } else if (part !== value) return undefined
  }
  return params
}

/** Link clicks stay in the app (modifier clicks still open a new tab). */
export function onLinkClick(event: MouseEvent, path: string): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return
  event.preventDefault()
  navigate(path)
}
