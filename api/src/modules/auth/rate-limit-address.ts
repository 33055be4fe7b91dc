/**
 * The form of an address that rate limits count: trimmed, lower-cased and without a `+tag` in the local
 * part, so `a+x@Example.com` and `a@example.com` share one bucket. Most providers deliver both to one
 * mailbox, so otherwise one person could multiply every per-address limit. Only for counting: accounts and
 * mails keep the address as given.
 */
export function rateLimitAddress(email: string): string {
  const normalized = email.trim().toLowerCase()
  const at = normalized.lastIndexOf('@')
  if (at <= 0) return normalized
  const local = normalized.slice(0, at)
  const plus = local.indexOf('+')
  // "+tag@x" has no base address left: keep it whole rather than count it under the empty name.
  return plus > 0 ? `${local.slice(0, plus)}${normalized.slice(at)}` : normalized
}
