/**
 * Tails files in the anoncreds-rs format: a 2-byte version tag (0, 2), then 2L+1 G2 points of 128 bytes, tail k =
 * g'^(gamma^k) except tail 0 and tail L+1 (the secret one), which are g' itself (clsignatures'
 * RevocationTailsGenerator); `tailsHash` is base58(SHA-256(file)). Building one is 2L fixed-base multiplications
 * (tails-kernel.ts), spread over worker threads so the caller's event loop stays free; reading one checks the hash.
 */
import { createHash } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'

import { encodeBase58 } from '@idplane/common/base58'

import { Fp2, G2, P, R, type G2Point } from './bn254'
import { EncodingError, G2_BYTES } from './encoding'
import type { AffineG2 } from './multiply'
import { bestWindowBits, computeTails, type TailsKernelInput } from './tails-kernel'

/** anoncreds-rs' tails file version tag. */
export const TAILS_VERSION = Uint8Array.of(0, 2)

export function tailsFileSize(maxCredNum: number): number {
  return TAILS_VERSION.length + (2 * maxCredNum + 1) * G2_BYTES
}

/** base58(SHA-256(tails file)), the definition's `tailsHash`. */
export function tailsHash(file: Uint8Array): string {
  return encodeBase58(createHash('sha256').update(file).digest())
}

function kernelInput(gDash: G2Point, gamma: bigint, maxCredNum: number, from: number, to: number): TailsKernelInput {
  const { x, y } = gDash.toAffine()
  return {
    p: P,
    r: R,
    base: [x.c0, x.c1, y.c0, y.c1],
    gamma,
    from,
    to,
    secret: maxCredNum + 1,
    windowBits: bestWindowBits(to - from, R.toString(2).length),
  }
}

/** The tails file, computed in this thread (seconds for large registries: prefer buildTailsFileInWorkers). */
export function buildTailsFile(gDash: G2Point, gamma: bigint, maxCredNum: number): Uint8Array {
  const file = new Uint8Array(tailsFileSize(maxCredNum))
  file.set(TAILS_VERSION, 0)
  file.set(computeTails(kernelInput(gDash, gamma, maxCredNum, 0, 2 * maxCredNum + 1)), TAILS_VERSION.length)
  return file
}

// The kernel's own source, run as is by each worker (it has no imports).
const WORKER_SOURCE = `
const computeTails = (${computeTails.toString()});
const { parentPort, workerData } = require('node:worker_threads');
const tails = computeTails(workerData);
parentPort.postMessage(tails, [tails.buffer]);
`

/** The worker's tails, once the thread has ended (its script ends after posting them), so none outlives a call. */
function runWorker(worker: Worker): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    let tails: Uint8Array | undefined
    worker.once('message', (message: Uint8Array) => (tails = message))
    worker.once('error', reject)
    worker.once('exit', (code) =>
      tails ? resolve(tails) : reject(new Error(`the tails worker exited with code ${code} and no tails`)),
    )
  })
}

/** Below this many tails one thread is quicker than starting workers. */
const MIN_TAILS_PER_WORKER = 500

/** The tails file from `threads` worker threads, each computing its share; rejects when a worker fails. */
export async function computeTailsFileInWorkers(
  gDash: G2Point,
  gamma: bigint,
  maxCredNum: number,
  threads: number,
): Promise<Uint8Array> {
  const total = 2 * maxCredNum + 1
  const count = Math.max(1, Math.min(threads, Math.floor(total / MIN_TAILS_PER_WORKER)))
  const bounds = Array.from({ length: count + 1 }, (_, k) => Math.round((total * k) / count))
  const workers = bounds.slice(0, -1).map(
    (from, k) =>
      new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: kernelInput(gDash, gamma, maxCredNum, from, bounds[k + 1]),
      }),
  )
  let parts: Uint8Array[]
  try {
    parts = await Promise.all(workers.map(runWorker))
  } catch (error) {
    // One failed: the others' work is of no use.
    for (const worker of workers) void worker.terminate()
    throw error
  }
  const file = new Uint8Array(tailsFileSize(maxCredNum))
  file.set(TAILS_VERSION, 0)
  parts.forEach((part, k) => file.set(part, TAILS_VERSION.length + bounds[k] * G2_BYTES))
  return file
}

/**
 * The tails file computed by `threads` worker threads (default: one per core, at most 4), the calling thread only
 * waiting. Where workers cannot run (a sandbox without worker_threads, an instrumented kernel source), the file is
 * computed in this thread.
 */
export async function buildTailsFileInWorkers(
  gDash: G2Point,
  gamma: bigint,
  maxCredNum: number,
  threads = Math.min(4, availableParallelism()),
): Promise<Uint8Array> {
  try {
    return await computeTailsFileInWorkers(gDash, gamma, maxCredNum, threads)
  } catch {
    return buildTailsFile(gDash, gamma, maxCredNum)
  }
}

function readField(file: Uint8Array, offset: number): bigint {
  return BigInt('0x' + Buffer.from(file.buffer, file.byteOffset + offset, 32).toString('hex'))
}

/**
 * Reads tails from a file whose hash matched its registry definition (the issuer vouches for its points, so each is
 * checked on the curve only, not for the subgroup, which would cost milliseconds per tail).
 */
export class TailsReader {
  private readonly file: Uint8Array
  public readonly maxCredNum: number

  /** Throws EncodingError when the file does not have the definition's hash, size and version. */
  public constructor(file: Uint8Array, maxCredNum: number, expectedHash: string) {
    if (!(file instanceof Uint8Array)) throw new EncodingError('tails file: expected bytes')
    if (file.length !== tailsFileSize(maxCredNum))
      throw new EncodingError('tails file: its size does not match the registry')
    if (file[0] !== TAILS_VERSION[0] || file[1] !== TAILS_VERSION[1])
      throw new EncodingError('tails file: unknown version')
    if (tailsHash(file) !== expectedHash)
      throw new EncodingError("tails file: its hash is not the registry definition's tailsHash")
    this.file = file
    this.maxCredNum = maxCredNum
  }

  /** Tail k (0 to 2L) as affine coordinates (x0, x1, y0, y1), checked on the curve. */
  public tail(k: number): AffineG2 {
    if (!Number.isInteger(k) || k < 0 || k > 2 * this.maxCredNum) throw new EncodingError(`tail ${k}: out of range`)
    const offset = TAILS_VERSION.length + k * G2_BYTES
    const [x0, x1, y0, y1] = [0, 32, 64, 96].map((delta) => readField(this.file, offset + delta))
    if (x0 >= P || x1 >= P || y0 >= P || y1 >= P) throw new EncodingError(`tail ${k}: coordinate out of range`)
    const x = Fp2.create({ c0: x0, c1: x1 })
    const y = Fp2.create({ c0: y0, c1: y1 })
    if (!Fp2.eql(Fp2.sqr(y), Fp2.add(Fp2.mul(Fp2.sqr(x), x), G2.CURVE().b)))
      throw new EncodingError(`tail ${k}: not a point of the curve`)
    return [x0, x1, y0, y1]
  }
}
