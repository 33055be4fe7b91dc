import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'

import { AnonCredsError } from '../anoncreds/errors'
import { checkTailsFile, readRevocationRegistryDefinition } from '../anoncreds/revocation'
import { tailsFileSize, tailsHash } from '../anoncreds/revocation/tails'
import type { OutboundTargetGuard } from '../transport/outbound-target-guard'

/** @default 60 seconds to download a tails file (a 10,000-credential registry's is 2.5 MB). */
export const DEFAULT_TAILS_DOWNLOAD_TIMEOUT_MS = 60_000

/**
 * A tails file could not be used: it could not be downloaded, or it is not the file its registry definition names
 * (its hash differs, or its size is not the registry's). The message says which, with the URL and both hashes.
 */
export class TailsFileError extends Error {
  public constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'TailsFileError'
  }
}

/**
 * Downloads the tails file of a revocation registry definition from its `tailsLocation` and checks it before
 * anything uses it: exactly the size a registry of maxCredNum has (the download stops beyond it), and base58(SHA-256)
 * equal to the definition's `tailsHash`. The location is the issuer's say-so, so it passes the agent's outgoing-target
 * rule first (`guard`; docs/decisions.md, "Outgoing targets"), and redirects are not followed.
 * @throws TailsFileError
 */
export async function downloadTailsFile(
  revocationRegistryDefinition: unknown,
  options: { guard?: OutboundTargetGuard; timeoutMs?: number } = {},
): Promise<Uint8Array> {
  let definition
  try {
    definition = readRevocationRegistryDefinition(revocationRegistryDefinition)
  } catch (error) {
    throw new TailsFileError(`The revocation registry definition cannot be read: ${(error as Error).message}`, {
      cause: error,
    })
  }
  const { tailsLocation, tailsHash: expectedHash, maxCredNum } = definition.value
  const expectedSize = tailsFileSize(maxCredNum)
  let url: URL
  let lookup: LookupFunction | undefined
  try {
    const target = options.guard
      ? await options.guard.check(tailsLocation, 'tailsLocation')
      : { url: new URL(tailsLocation), lookup: undefined }
    url = target.url
    lookup = target.lookup
  } catch (error) {
    throw new TailsFileError(`The tails location ${tailsLocation} is refused: ${(error as Error).message}`, {
      cause: error,
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TailsFileError(`The tails location ${tailsLocation} is not an http(s) URL`)
  const bytes = await get(url, lookup, expectedSize, options.timeoutMs ?? DEFAULT_TAILS_DOWNLOAD_TIMEOUT_MS)
  const actualHash = tailsHash(bytes)
  if (actualHash !== expectedHash) {
    throw new TailsFileError(
      `The tails file at ${tailsLocation} is not the registry's: its hash is ${actualHash}, the definition's tailsHash is ${expectedHash}`,
    )
  }
  try {
    // Size and version too (the hash matched, so this holds for any file the issuer made).
    checkTailsFile(bytes, revocationRegistryDefinition)
  } catch (error) {
    if (error instanceof AnonCredsError)
      throw new TailsFileError(`The tails file at ${tailsLocation} is unusable: ${error.message}`, { cause: error })
    throw error
  }
  return bytes
}

function get(url: URL, lookup: LookupFunction | undefined, maxBytes: number, timeoutMs: number): Promise<Uint8Array> {
  const client = url.protocol === 'https:' ? https : http
  const where = url.href
  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (outcome: { bytes: Uint8Array } | { error: TailsFileError }) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if ('bytes' in outcome) resolve(outcome.bytes)
      else {
        reject(outcome.error)
        request.destroy()
      }
    }
    const fail = (message: string, cause?: unknown) => settle({ error: new TailsFileError(message, { cause }) })
    const request = client.request(url, {
      method: 'GET',
      headers: { accept: 'application/octet-stream' },
      ...(lookup ? { lookup } : {}),
      agent: false,
    })
    const timer = setTimeout(() => fail(`The tails file at ${where} did not arrive within ${timeoutMs} ms`), timeoutMs)
    request.once('response', (response) => {
      if (response.statusCode !== 200) {
        fail(`The tails file at ${where} could not be downloaded (HTTP ${response.statusCode})`)
        return
      }
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > maxBytes) fail(`The tails file at ${where} is larger than the registry's (${maxBytes} bytes)`)
        else chunks.push(chunk)
      })
      response.once('end', () => settle({ bytes: new Uint8Array(Buffer.concat(chunks, size)) }))
      response.once('error', (error) => fail(`The tails file at ${where} broke off`, error))
    })
    request.once('error', (error) =>
      fail(`The tails file at ${where} could not be downloaded: ${error.message}`, error),
    )
    request.end()
  })
}
