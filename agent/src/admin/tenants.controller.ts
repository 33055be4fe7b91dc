import { NotImplementedError } from '@idplane/common'
import { Authorized, Delete, Get, JsonController, Post } from 'routing-controllers'

/** Base-wallet tenancy (issue requirement 6) is not built yet: every route says so with a 501. */
@Authorized()
@JsonController('/tenants')
export class TenantsController {
  @Post()
  public create(): never {
    throw new NotImplementedError('Tenants are not implemented yet')
  }

  @Get()
  public list(): never {
    throw new NotImplementedError('Tenants are not implemented yet')
  }

  @Delete('/:tenantId')
  public remove(): never {
    throw new NotImplementedError('Tenants are not implemented yet')
  }
}
