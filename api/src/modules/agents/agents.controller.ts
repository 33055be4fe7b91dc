import { injectable } from 'inversify'
import { Authorized, Body, Get, HttpCode, JsonController, Param, Post } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { ORG_ROLES } from '../memberships/org-roles'
import { AgentsService } from './agents.service'
import { SpinUpAgentDto } from './dto/spin-up-agent.dto'
import { toAgentResponse, type AgentHealthResponse, type AgentResponse } from './dto/agent.response'
import { ResponseData } from '../../infra/http/response-doc'
import { AGENT_HEALTH_SCHEMA, AGENT_SCHEMA } from './dto/agent.response'

/** Per-organization agent provisioning (spec: "What the service does", agent provisioning). */
@injectable()
@JsonController('/v1/orgs/:orgId/agents')
@OpenAPI({ tags: ['Agents'] })
export class AgentsController {
  public constructor(private readonly agents: AgentsService) {}

  /** Starts provisioning; the record is PENDING until the agent answers and its first DID is created. */
  @Post('/spinup')
  @HttpCode(201)
  @Authorized(ORG_ROLES.ownerAdmin)
  @ResponseData(AGENT_SCHEMA, { errors: [409] })
  async spinUp(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: SpinUpAgentDto,
  ): Promise<Envelope<AgentResponse>> {
    return created(toAgentResponse(await this.agents.spinUp(orgId, body)), 'Agent provisioning started')
  }

  @Get('/health')
  @Authorized(ORG_ROLES.members)
  @ResponseData(AGENT_HEALTH_SCHEMA)
  async health(@Param('orgId') orgId: string): Promise<Envelope<AgentHealthResponse>> {
    const { agent, isAnswering } = await this.agents.health(orgId)
    return ok({ ...toAgentResponse(agent), isAnswering }, 'Agent health fetched')
  }
}
