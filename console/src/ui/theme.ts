// Light and dark themes: the system's choice unless the person picked one (kept in localStorage: a preference, no
// secret).
export type Theme = 'light' | 'dark' | 'system'

const KEY = 'idplane-console-theme'

export function storedTheme(): Theme {
  const value = localStorage.getItem(KEY)
  return value === 'light' || value === 'dark' ? value : 'system'
}

export function applyTheme(theme: Theme = storedTheme()): void {
  if (theme === 'system') {
    localStorage.removeItem(KEY)
    delete document.documentElement.dataset.theme
  } else {
    localStorage.setItem(KEY, theme)
    document.documentElement.dataset.theme = theme
  }
}
