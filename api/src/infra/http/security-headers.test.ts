import type { RequestHandler } from 'express'
import { headersSetBy } from './security-headers'

describe('headersSetBy', () => {
  it('reads the headers a middleware sets, in order', () => {
    const middleware: RequestHandler = (_req, res, next) => {
      res.setHeader('X-One', '1')
      res.setHeader('X-Two', 'two')
      next()
    }
    expect(headersSetBy(middleware)).toEqual([
      ['X-One', '1'],
      ['X-Two', 'two'],
    ])
  })

  it('refuses a middleware that goes on later or sets nothing, so the API does not start without its headers', () => {
    const later: RequestHandler = (_req, res, next) => {
      res.setHeader('X-One', '1')
      setImmediate(next)
    }
    expect(() => headersSetBy(later)).toThrow('could not be read')
    expect(() => headersSetBy((_req, _res, next) => next())).toThrow('could not be read')
  })
})
