import { IsString, IsUUID } from 'class-validator'

/** Path of the routes on one connection (`orgId` is checked by `@Authorized`). */
export class ConnectionPathParams {
  @IsString()
  orgId: string

  /** The agent's connection record id: Credo writes UUIDs (spec: 400 when it is not one). */
  @IsUUID()
  connectionId: string
}
