import { InvalidInputError, UnauthenticatedError } from '@idplane/common'
import type { NextFunction, Request, Response } from 'express'

import type { IdplaneModules, ScopedAgent } from '../credo/build-agent'
import type { ApiKeyCheck } from './admin-auth'
import type { AgentRuntime } from './agent-runtime'

/** The wallet an admin call acts on: the base agent, or the tenant named by `X-Tenant-Id`. */
export interface AgentScope {
  agent: ScopedAgent
  /** Default label and image for invitations: the agent's own, or the tenant's. */
  label: string
  imageUrl?: string
  tenantId?: string
}

const SCOPE_KEY = 'agentScope'

/**
 * Resolves the scope of each request. A tenant session is opened only for a caller holding the base API key (so
 * an unknown tenant id says nothing to others) and ends when the response closes. Tenants cannot manage tenants.
 */
export function agentScope(runtime: AgentRuntime, apiKey: ApiKeyCheck) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const tenantId = req.header('x-tenant-id')
    // Only GET /agent gets here before initialization, and it takes no scope.
    if (!runtime.isInitialized) {
      next()
      return
    }
    if (tenantId === undefined) {
      res.locals[SCOPE_KEY] = { agent: runtime.agent, label: runtime.label } satisfies AgentScope
      next()
      return
    }
    if (!apiKey.isAuthorized(req.header('authorization'))) throw new UnauthenticatedError('Unauthorized')
    if (req.path === '/tenants' || req.path.startsWith('/tenants/')) {
      throw new InvalidInputError('X-Tenant-Id is not allowed on /tenants', [
        { field: 'X-Tenant-Id', message: 'must not be set' },
      ])
    }
    const session = await runtime.tenants.openSession<IdplaneModules>(tenantId)
    res.once('close', () => void session.end())
    res.locals[SCOPE_KEY] = {
      agent: session.agent,
      label: session.tenant.config.label,
      imageUrl: session.tenant.config.connectionImageUrl,
      tenantId,
    } satisfies AgentScope
    next()
  }
}

/** The scope resolved for this request; undefined before the agent is initialized (only GET /agent runs then). */
export function scopeOf(res: Response): AgentScope | undefined {
  return res.locals[SCOPE_KEY] as AgentScope | undefined
}
