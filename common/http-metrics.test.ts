import { EventEmitter } from 'node:events'

import express, { type Request, type Response } from 'express'

import { matchRouteTemplate, measureRequestDurations, UNMATCHED_ROUTE } from './http-metrics'

function anApp() {
  const app = express()
  const handler = (_req: Request, res: Response) => void res.end()
  app.use((_req, _res, next) => next())
  app.get('/connections/:connectionId', handler)
  app.post('/oob/create-invitation', handler)
  // Registered first, as the API does, so that the parameter route does not take the static path.
  app.get('/orgs/public-profile', handler)
  app.get('/orgs/:orgId', handler)
  app.all('/any', handler)
  const mounted = express.Router()
  mounted.get('/inside', handler)
  app.use('/mounted', mounted)
  return app
}

describe('matchRouteTemplate', () => {
  const app = anApp()

  it.each([
    ['GET', '/connections/3f1c', '/connections/:connectionId'],
    ['POST', '/oob/create-invitation', '/oob/create-invitation'],
    ['GET', '/orgs/public-profile', '/orgs/public-profile'],
    ['GET', '/orgs/3f1c', '/orgs/:orgId'],
    ['HEAD', '/connections/3f1c', '/connections/:connectionId'],
    ['get', '/connections/3f1c', '/connections/:connectionId'],
    ['GET', '/Connections/3f1c', '/connections/:connectionId'],
    ['GET', '/connections/3f1c/', '/connections/:connectionId'],
    ['DELETE', '/any', '/any'],
    ['POST', '/connections/3f1c', UNMATCHED_ROUTE],
    ['GET', '/oob/create-invitation', UNMATCHED_ROUTE],
    ['GET', '/connections/3f1c/extra', UNMATCHED_ROUTE],
    ['GET', '/nothing', UNMATCHED_ROUTE],
    ['GET', '/connections/%E0%A4%A', UNMATCHED_ROUTE],
    ['GET', '/mounted/inside', UNMATCHED_ROUTE],
  ])('labels %s %s as %s', (method, path, template) => {
    expect(matchRouteTemplate(app, method, path)).toBe(template)
  })
})

describe('measureRequestDurations', () => {
  function aRequest(path: string) {
    const req = { app: anApp(), method: 'GET', path }
    const res = Object.assign(new EventEmitter(), { statusCode: 200 })
    const observed: Record<string, string | number>[] = []
    const histogram = { startTimer: () => (labels?: Record<string, string | number>) => observed.push(labels ?? {}) }
    const next = jest.fn()
    measureRequestDurations(histogram)(req as unknown as Request, res as unknown as Response, next)
    return { req, res, observed, next }
  }

  it('observes the template and status once the response finishes', () => {
    const { res, observed, next } = aRequest('/connections/3f1c')
    expect(next).toHaveBeenCalledWith()
    expect(observed).toEqual([])
    res.statusCode = 404
    res.emit('finish')
    expect(observed).toEqual([{ method: 'GET', route: '/connections/:connectionId', status: '404' }])
  })

  it('uses the path seen on entry, not one a later middleware rewrote', () => {
    const { req, res, observed } = aRequest('/orgs/3f1c')
    req.path = '/'
    res.emit('finish')
    expect(observed).toEqual([{ method: 'GET', route: '/orgs/:orgId', status: '200' }])
  })

  it('labels a request that matches no route as unmatched', () => {
    const { res, observed } = aRequest('/orgs/3f1c/nothing')
    res.emit('finish')
    expect(observed).toEqual([{ method: 'GET', route: UNMATCHED_ROUTE, status: '200' }])
  })
})
