// Property tests run with a fixed seed, so that a CI run is repeatable and a failure reproduces: FC_SEED=random (or a
// number) searches elsewhere; a test may still name its own seed. The seed of a failure is printed with it.
const fc = require('fast-check')

const chosen = process.env.FC_SEED
const seed = chosen === 'random' ? Date.now() ^ (Math.random() * 0x100000000) : Number(chosen ?? 20261129)
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed })
