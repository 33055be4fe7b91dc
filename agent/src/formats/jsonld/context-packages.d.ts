// The context package ships CommonJS without types; it exports its contexts as a Map of URL to document.
declare module 'ed25519-signature-2020-context' {
  export const contexts: Map<string, Record<string, unknown>>
}
