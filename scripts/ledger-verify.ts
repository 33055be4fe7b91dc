// `npm run ledger:verify [from] [to]`: checks the ledger chain (hashes, links, signatures) in the configured database
// and prints the result as JSON; exit code 1 when a transaction is invalid (docs/decisions.md, "Ledger (issue 13)").
import 'reflect-metadata'
import { runLedgerVerify } from '../api/src/modules/ledger/ledger-verify-command'

runLedgerVerify(process.env, process.argv.slice(2))
  .then((check) => {
    process.stdout.write(`${JSON.stringify(check)}\n`)
    if (!check.isValid) process.exitCode = 1
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 2
  })
