import { EventEmitter, inject, injectable, InjectionSymbols, Repository, type StorageService } from '@credo-ts/core'
import { OpenId4VcIssuerRecord } from '@credo-ts/openid4vc'

/**
 * Credo's issuer records, for what its API does not offer (queries without throwing, deletion): the package does
 * not export its own repository. Same storage, same record class.
 */
@injectable()
export class IssuerRecordRepository extends Repository<OpenId4VcIssuerRecord> {
  public constructor(
    @inject(InjectionSymbols.StorageService) storage: StorageService<OpenId4VcIssuerRecord>,
    eventEmitter: EventEmitter,
  ) {
    super(OpenId4VcIssuerRecord, storage, eventEmitter)
  }
}
