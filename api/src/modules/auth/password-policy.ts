/**
 * Sign-up password rules (the spec is silent; docs/decisions.md): 8 to 128 characters with at least one letter
 * and one digit. Length is what matters most (NIST SP 800-63B); the letter-and-digit rule stops the
 * commonest all-digit and all-letter choices. The upper bound keeps hashing cost bounded.
 */
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128
export const PASSWORD_PATTERN = /^(?=.*\p{L})(?=.*\p{Nd})/u
export const PASSWORD_POLICY_MESSAGE = `password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters with at least one letter and one digit`
