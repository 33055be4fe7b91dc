import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { orgsConfig } from './orgs.config'
import { PublicProfilesController } from './public-profiles.controller'
import { OrgsController } from './orgs.controller'
import { OrgDidsController } from './org-dids.controller'
import { ClientCredentialsController } from './client-credentials.controller'
import { OrgsService } from './orgs.service'
import { OrgsRepository } from './orgs.repository'
import { OrgMembersService } from './org-members.service'
import { OrgDidsService } from './org-dids.service'
import { OrgDidsRepository } from './org-dids.repository'
import { ClientCredentialsService } from './client-credentials.service'
import { ClientCredentialsRepository } from './client-credentials.repository'
import { OrgsCounter } from './orgs.counter'
import { Organization } from './organization.entity'
import { OrgDid } from './org-did.entity'
import { ClientCredential } from './client-credential.entity'

/**
 * Organizations, their DIDs and machine-to-machine credentials. PublicProfilesController comes first:
 * routes register in this order and `/v1/orgs/:orgId` would otherwise match `/v1/orgs/public-profile`.
 */
export const orgsModule: ApiModule = {
  name: 'orgs',
  config: orgsConfig,
  controllers: [PublicProfilesController, OrgsController, OrgDidsController, ClientCredentialsController],
  entities: [Organization, OrgDid, ClientCredential],
  counter: OrgsCounter,
  bindings: new ContainerModule(({ bind }) => {
    bind(PublicProfilesController).toSelf().inSingletonScope()
    bind(OrgsController).toSelf().inSingletonScope()
    bind(OrgDidsController).toSelf().inSingletonScope()
    bind(ClientCredentialsController).toSelf().inSingletonScope()
    bind(OrgsRepository).toSelf().inSingletonScope()
    bind(OrgsService).toSelf().inSingletonScope()
    bind(OrgMembersService).toSelf().inSingletonScope()
    bind(OrgDidsRepository).toSelf().inSingletonScope()
    bind(OrgDidsService).toSelf().inSingletonScope()
    bind(ClientCredentialsService).toSelf().inSingletonScope()
    bind(ClientCredentialsRepository).toSelf().inSingletonScope()
    bind(OrgsCounter).toSelf().inSingletonScope()
  }),
}
