/**
 * The hot spot of AnonCreds (issue 12): modular exponentiation with a 2048-bit modulus, measured for the three
 * options the issue names, in one run on the same inputs:
 *   - JS BigInt square-and-multiply (`modPowJs` in agent/src/anoncreds/math.ts),
 *   - Node's OpenSSL through `crypto` (`modPow`: an RSA public-key operation without padding, what we ship for
 *     public exponents narrower than the modulus; wider ones go the next way),
 *   - Node's OpenSSL through a Diffie-Hellman object kept per modulus (`modPowConstantTime`: its shared secret, in
 *     constant time; what we ship for secret exponents),
 *   - GMP compiled to WebAssembly (`gmp-wasm`, a maintained WASM big-number library; devDependency only).
 * For GMP two figures: `mpz_powm` on operands already in GMP's memory (its ceiling), and the call as our code would
 * make it (bigint in, bigint out: the conversions included).
 *
 *   npm run bench:modpow
 *   BENCH_MODPOW_ITERATIONS=50 npm run bench:modpow
 *
 * Every option's result is compared with BigInt's before anything is timed.
 */
import { randomBytes } from 'node:crypto'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'

import { init as initGmp } from 'gmp-wasm'

import { modPow, modPowConstantTime, modPowJs } from '../agent/src/anoncreds/math'
import { positiveIntEnv } from './api-harness'

const ITERATIONS = positiveIntEnv('BENCH_MODPOW_ITERATIONS', 30)
const EXPONENT_BITS = [456, 600, 2048, 3060]

function randomOdd(bits: number): bigint {
  const value = BigInt(`0x${randomBytes(Math.ceil(bits / 8)).toString('hex')}`)
  return (value | (1n << BigInt(bits - 1)) | 1n) & ((1n << BigInt(bits)) - 1n)
}

function medianMs(action: () => unknown): number {
  const samples: number[] = []
  for (let index = 0; index < ITERATIONS; index++) {
    const started = performance.now()
    action()
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)]
}

async function main(): Promise<void> {
  const gmp = await initGmp()
  const context = gmp.getContext()
  const { binding } = gmp
  const modulus = randomOdd(2048)
  const base = randomOdd(2040)

  /** bigint → GMP integer → powm → bigint, as a drop-in modPow would do it. */
  const gmpModPow = (b: bigint, e: bigint, n: bigint): bigint => {
    const result = context
      .Integer(b.toString(16), 16)
      .pow(context.Integer(e.toString(16), 16), context.Integer(n.toString(16), 16))
    // pow's declared return type loses Integer's toString(radix), which the object has.
    return BigInt(`0x${(result as unknown as { toString(radix: number): string }).toString(16)}`)
  }

  console.log(
    `modular exponentiation, 2048-bit modulus, median of ${ITERATIONS}, load average ${loadavg()[0].toFixed(1)}`,
  )
  console.log(
    '| exponent bits | JS BigInt | OpenSSL (modPow) | OpenSSL DH, constant time | GMP WASM powm only | GMP WASM with conversions |',
  )
  console.log('|---|---|---|---|---|---|')
  const speedups: string[] = []
  for (const bits of EXPONENT_BITS) {
    const exponent = randomOdd(bits)
    const expected = modPowJs(base, exponent, modulus)
    if (modPow(base, exponent, modulus) !== expected) throw new Error('OpenSSL modPow disagrees with BigInt')
    if (modPowConstantTime(base, exponent, modulus) !== expected) throw new Error('OpenSSL DH disagrees with BigInt')
    if (gmpModPow(base, exponent, modulus) !== expected) throw new Error('GMP powm disagrees with BigInt')

    // Operands placed in GMP's memory once, so only mpz_powm is timed.
    const [rop, b, e, n] = [0, 1, 2, 3].map(() => {
      const pointer = binding.mpz_t()
      binding.mpz_init(pointer)
      return pointer
    })
    for (const [pointer, value] of [
      [b, base],
      [e, exponent],
      [n, modulus],
    ] as const) {
      const text = binding.malloc_cstr(value.toString(16))
      binding.mpz_set_str(pointer, text, 16)
      binding.free(text)
    }

    const js = medianMs(() => modPowJs(base, exponent, modulus))
    const openSsl = medianMs(() => modPow(base, exponent, modulus))
    const constantTime = medianMs(() => modPowConstantTime(base, exponent, modulus))
    const gmpOnly = medianMs(() => binding.mpz_powm(rop, b, e, n))
    const gmpCall = medianMs(() => gmpModPow(base, exponent, modulus))
    for (const pointer of [rop, b, e, n]) {
      binding.mpz_clear(pointer)
      binding.mpz_t_free(pointer)
    }
    console.log(
      `| ${bits} | ${js.toFixed(2)} ms | ${openSsl.toFixed(2)} ms | ${constantTime.toFixed(2)} ms | ${gmpOnly.toFixed(2)} ms | ${gmpCall.toFixed(2)} ms |`,
    )
    speedups.push(`${bits}: ${(gmpCall / openSsl).toFixed(1)}`)
  }
  context.destroy()
  // The figure that decides the choice: how many times slower the best alternative is than what we ship.
  console.log(`GMP WASM (with conversions) time / OpenSSL time, by exponent bits: ${speedups.join(', ')}`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
