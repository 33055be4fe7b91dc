import { Authorized, Body, Delete, Get, HttpCode, JsonController, Param, Post } from 'routing-controllers'

import type { AgentRuntime } from './agent-runtime'
import { CreateTenantDto, toTenantResponse } from './dto/tenants.dto'
import { created, ok } from './envelope'

/** Tenants of the base wallet (cloud wallets); other routes act on one with `X-Tenant-Id`. */
@Authorized()
@JsonController('/tenants')
export class TenantsController {
  public constructor(private readonly runtime: AgentRuntime) {}

  @Post()
  @HttpCode(201)
  public async create(@Body() body: CreateTenantDto) {
    const record = await this.runtime.tenants.create({
      label: body.label,
      connectionImageUrl: body.connectionImageUrl,
    })
    return created(toTenantResponse(record), 'Tenant created')
  }

  @Get()
  public async list() {
    return ok((await this.runtime.tenants.list()).map(toTenantResponse))
  }

  @Get('/:tenantId')
  public async get(@Param('tenantId') tenantId: string) {
    return ok(toTenantResponse(await this.runtime.tenants.get(tenantId)))
  }

  /** Removes the tenant with its records and keys. */
  @Delete('/:tenantId')
  public async remove(@Param('tenantId') tenantId: string) {
    await this.runtime.tenants.delete(tenantId)
    return ok({ id: tenantId }, 'Tenant deleted')
  }
}
