/**
 * Sizes in bits of the CL signature parameters, as anoncreds-clsignatures (ursa) fixes them; a value of a
 * different size would still verify in our code but could leak information or be refused elsewhere.
 */
export const LARGE_PRIME = 1024 // each safe prime of the modulus
export const LARGE_LINK_SECRET = 256
export const LARGE_NONCE = 80
export const LARGE_E_START = 596 // e = 2^596 + a random prime offset
export const LARGE_E_END_RANGE = 119 // ... of at most 119 bits
export const LARGE_VPRIME = 2128 // holder's blinding v'
export const LARGE_VPRIME_PRIME = 2724 // issuer's v'' (top bit forced)
export const LARGE_VPRIME_TILDE = 673 // blinding of v' in the request's proof
export const LARGE_MTILDE = 593 // blinding of a hidden attribute in the request's proof

/** The link secret's name in credential definitions, kept from Indy for compatibility with published ones. */
export const LINK_SECRET_ATTRIBUTE = 'master_secret'
