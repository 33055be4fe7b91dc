import { IsUUID } from 'class-validator'

/** Path of `GET /ecosystem/:ecosystemId/org/:orgId` (both UUID v4). */
export class EcosystemOrgParams {
  @IsUUID('4')
  ecosystemId: string

  @IsUUID('4')
  orgId: string
}
