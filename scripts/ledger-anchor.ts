// `npm run ledger:anchor [--replace]`: signs the ledger's current head with the trustee key after an operator has
// looked into why its anchor was lost or no longer matches (docs/deployment.md, "Ledger anchor"). Refused while the
// chain does not verify; `--replace` replaces an existing anchor. Prints what it replaced and anchored as JSON.
import 'reflect-metadata'
import { Logger } from '@idplane/common'
import { runLedgerAnchor } from '../api/src/modules/ledger/ledger-commands'

runLedgerAnchor(process.env, process.argv.slice(2), undefined, new Logger({ program: 'ledger-anchor' }))
  .then((result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`)
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 2
  })
