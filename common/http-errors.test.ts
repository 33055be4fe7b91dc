import { BadRequestError, ForbiddenError as HttpForbidden, UnauthorizedError } from 'routing-controllers'
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  InvalidStateError,
  NotFoundError,
  NotImplementedError,
  RateLimitedError,
  UnauthenticatedError,
  UnavailableError,
  UpstreamError,
  IdplaneError,
} from './errors'
import { flattenValidationErrors, toKnownErrorResponse } from './http-errors'

describe('toKnownErrorResponse', () => {
  it.each([
    ['invalid input', new InvalidInputError('Bad', [{ field: 'name', message: 'too short' }]), 400],
    ['unauthenticated', new UnauthenticatedError('No token'), 401],
    ['forbidden', new ForbiddenError('No role'), 403],
    ['not found', new NotFoundError('Schema not found'), 404],
    ['conflict', new ConflictError('Exists'), 409],
    ['invalid state', new InvalidStateError('Already accepted'), 409],
    ['rate limited', new RateLimitedError('Slow down', 30), 429],
    ['not implemented', new NotImplementedError('Later'), 501],
    ['upstream', new UpstreamError('Agent down'), 502],
    ['unavailable', new UnavailableError('Starting', 5), 503],
    ['routing-controllers 400', new BadRequestError('Bad'), 400],
    ['routing-controllers 401', new UnauthorizedError('No'), 401],
    ['routing-controllers 403', new HttpForbidden('No'), 403],
    [
      'malformed JSON',
      Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed', status: 400 }),
      400,
    ],
    ['oversized body', Object.assign(new Error('too large'), { type: 'entity.too.large', status: 413 }), 413],
  ])('maps %s to %i with the error body', (_name, error, status) => {
    const response = toKnownErrorResponse(error)
    expect(response?.body.statusCode).toBe(status)
    expect(response?.body.error).toEqual(expect.any(String))
    expect(JSON.stringify(response)).not.toMatch(/\bat .+:\d+/)
  })

  it('carries field errors and Retry-After', () => {
    expect(toKnownErrorResponse(new InvalidInputError('Bad', [{ field: 'a', message: 'b' }]))?.body.errors).toEqual([
      { field: 'a', message: 'b' },
    ])
    expect(toKnownErrorResponse(new RateLimitedError('Slow down', 30))?.headers).toEqual({ 'Retry-After': '30' })
    expect(toKnownErrorResponse(new UnavailableError('Starting', 5))?.headers).toEqual({ 'Retry-After': '5' })
  })

  it('leaves unknown errors to the caller (a fixed 500)', () => {
    expect(toKnownErrorResponse(new Error('boom'))).toBeUndefined()
    expect(toKnownErrorResponse(new IdplaneError('base class'))).toBeUndefined()
  })

  it('turns class-validator failures into a 400 with dotted fields and no values', () => {
    const failure = Object.assign(new BadRequestError('Invalid body'), {
      errors: [
        {
          property: 'invitations',
          children: [
            { property: '0', children: [{ property: 'email', constraints: { isEmail: 'email must be an email' } }] },
          ],
        },
      ],
    })
    expect(toKnownErrorResponse(failure)?.body).toEqual({
      statusCode: 400,
      message: 'Validation failed',
      error: 'Bad Request',
      errors: [{ field: 'invitations.0.email', message: 'email must be an email' }],
    })
  })
})

describe('flattenValidationErrors', () => {
  it('keeps every constraint of every level', () => {
    expect(
      flattenValidationErrors([
        { property: 'name', constraints: { minLength: 'too short', isString: 'not a string' } },
      ]),
    ).toEqual([
      { field: 'name', message: 'too short' },
      { field: 'name', message: 'not a string' },
    ])
  })
})
