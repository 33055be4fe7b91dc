// `npm run ledger:verify [from] [to]`: checks the ledger chain (hashes, links, signatures, bindings) in the configured
// database, and without `to` the signed anchor of the head and the records pointing at the ledger; prints the result
// as JSON; exit code 1 when any part is invalid (docs/decisions.md, "Ledger (issue 13)" and "Ledger anchor (issue 23)").
import 'reflect-metadata'
import { runLedgerVerify } from '../api/src/modules/ledger/ledger-commands'

runLedgerVerify(process.env, process.argv.slice(2))
  .then((check) => {
    process.stdout.write(`${JSON.stringify(check)}\n`)
    if (!check.isValid) process.exitCode = 1
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 2
  })
