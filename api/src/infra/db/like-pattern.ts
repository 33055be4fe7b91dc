/**
 * An ILIKE pattern matching `text` anywhere, with the wildcards `%` and `_` and the escape character `\`
 * taken literally (PostgreSQL's default LIKE escape is the backslash).
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}
