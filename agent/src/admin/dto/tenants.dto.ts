import { IsNotEmpty, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator'

import type { CreateTenantRequest, TenantResponse } from '@idplane/common/agent-contract/admin-api'

import type { TenantRecord } from '../../tenancy/tenant.record'

export class CreateTenantDto implements CreateTenantRequest {
  @IsString() @IsNotEmpty() @MaxLength(200) label: string
  @IsOptional() @IsUrl({ require_tld: false }) @MaxLength(2000) connectionImageUrl?: string
}

export type { TenantResponse }

export function toTenantResponse(record: TenantRecord): TenantResponse {
  return {
    id: record.id,
    label: record.config.label,
    ...(record.config.connectionImageUrl ? { connectionImageUrl: record.config.connectionImageUrl } : {}),
    createdAt: record.createdAt.toISOString(),
  }
}
