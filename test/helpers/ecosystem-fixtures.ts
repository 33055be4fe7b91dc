import 'reflect-metadata'
import { randomUUID } from 'node:crypto'
import request from 'supertest'
import type { TestApi } from './api'

/** Every ecosystem route (spec: Endpoints, Ecosystems), with its path template as the explorer lists it. */
export const ECOSYSTEM_ROUTES = [
  { method: 'post', path: '/v1/ecosystem' },
  { method: 'get', path: '/v1/ecosystem' },
  { method: 'get', path: '/v1/ecosystem/:ecosystemId/org/:orgId' },
  { method: 'post', path: '/v1/ecosystem/invitation' },
  { method: 'put', path: '/v1/ecosystem/invitation/status' },
  { method: 'get', path: '/v1/ecosystem/invitations' },
  { method: 'get', path: '/v1/ecosystem/invitation/status' },
  { method: 'get', path: '/v1/ecosystem/members' },
  { method: 'delete', path: '/v1/ecosystem/member' },
  { method: 'put', path: '/v1/ecosystem/member/status' },
] as const

export type HttpMethod = (typeof ECOSYSTEM_ROUTES)[number]['method']

export { EventRecorder, eventRecordingModule } from './platform-events'

/** The body of POST /v1/ecosystem with a unique name. */
export function anEcosystemBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: `Eco ${randomUUID().slice(0, 8)}`, description: 'A trust framework for tests', ...overrides }
}

/** Calls of the ecosystem routes as a given bearer token. */
export function ecosystemClient(api: TestApi, token?: string) {
  const send = (req: request.Test) => (token ? req.set('Authorization', `Bearer ${token}`) : req)
  return {
    create: (orgId: string, body: Record<string, unknown> = anEcosystemBody()) =>
      send(request(api.app).post('/v1/ecosystem').query({ orgId }).send(body)),
    list: (query: Record<string, string | number>) => send(request(api.app).get('/v1/ecosystem').query(query)),
    dashboard: (ecosystemId: string, orgId: string) =>
      send(request(api.app).get(`/v1/ecosystem/${ecosystemId}/org/${orgId}`)),
    invite: (ecosystemId: string, orgId: string) =>
      send(request(api.app).post('/v1/ecosystem/invitation').send({ ecosystemId, orgId })),
    answer: (ecosystemId: string, orgId: string, status: string) =>
      send(request(api.app).put('/v1/ecosystem/invitation/status').query({ status }).send({ ecosystemId, orgId })),
    invitations: (query: Record<string, string | number>) =>
      send(request(api.app).get('/v1/ecosystem/invitations').query(query)),
    invitationsWithStatus: (query: Record<string, string | number>) =>
      send(request(api.app).get('/v1/ecosystem/invitation/status').query(query)),
    members: (query: Record<string, string | number>) =>
      send(request(api.app).get('/v1/ecosystem/members').query(query)),
    remove: (ecosystemId: string, orgIds: unknown) =>
      send(request(api.app).delete('/v1/ecosystem/member').send({ ecosystemId, orgIds })),
    setStatus: (ecosystemId: string, orgIds: unknown, status: string) =>
      send(request(api.app).put('/v1/ecosystem/member/status').query({ status }).send({ ecosystemId, orgIds })),
  }
}
