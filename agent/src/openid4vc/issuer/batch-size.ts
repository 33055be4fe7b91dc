/**
 * Largest batch a wallet may ask for in one credential request. Its own module: the admin service loads the status list
 * code at start, which must not pull in `@credo-ts/openid4vc` (loaded only when the module is enabled).
 */
export const MAX_BATCH_SIZE = 100
