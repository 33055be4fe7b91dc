import { ConflictError, Logger, NotFoundError } from '@idplane/common'
import { defineOperation, shape } from '@idplane/common/agent-contract/operation'
import { IsOptional, IsString } from 'class-validator'
import express from 'express'
import request from 'supertest'

import { type AdminControllers, registerAdminRoutes, withMessage } from './admin-routes'
import type { AgentScope } from './agent-scope'
import { errorHandler, toErrorBody } from './error-handler'

class NoteDto {
  @IsString() text: string
}

class NoteQueryDto {
  @IsOptional() @IsString() tag?: string
}

const KINDS = {
  notes: {
    addNote: defineOperation({
      name: 'addNote',
      method: 'POST',
      path: '/notes/:book',
      message: 'Note added',
      body: shape<{ text: string }>(),
      result: shape<{ book: string; text: string; label: string }>(),
      summary: 'Adds a note',
      errors: { 409: 'the book is closed' },
    }),
    listNotes: defineOperation({
      name: 'listNotes',
      method: 'GET',
      path: '/notes',
      query: shape<{ tag?: string }>(),
      result: shape<string[]>(),
      summary: 'Lists notes',
    }),
    readme: defineOperation({
      name: 'readme',
      method: 'GET',
      path: '/readme',
      access: 'public',
      result: shape<string>(),
      summary: 'Public',
    }),
  },
}

const KEY = { Authorization: 'Bearer right' }

function anApp(overrides: Partial<AdminControllers<typeof KINDS>['notes']> = {}) {
  const lines: { level: string; message: string; data?: Record<string, unknown> }[] = []
  const logger = new Logger({}, 'debug')
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    logger[level] = (message: string, data?: Record<string, unknown>) => void lines.push({ level, message, data })
  }
  const controllers: AdminControllers<typeof KINDS> = {
    notes: {
      addNote: {
        body: NoteDto,
        handle: async ({ params, body, scope }) => {
          if (params.book === 'closed') throw new ConflictError('The book is closed')
          if (params.book === 'lost') throw new NotFoundError('No such book')
          if (params.book === 'quiet') return withMessage({ book: params.book, text: body.text, label: '' }, 'Noted')
          return { book: params.book, text: body.text, label: scope.label }
        },
      },
      listNotes: { query: NoteQueryDto, handle: async ({ query }) => (query.tag ? [query.tag] : []) },
      readme: { handle: async () => 'hello' },
      ...overrides,
    },
  }
  const app = express()
  app.use(express.json())
  registerAdminRoutes(app, KINDS, controllers, {
    isAuthorized: (req) => req.header('authorization') === 'Bearer right',
    scopeOf: () => ({ label: 'wallet' }) as AgentScope,
    statusOf: (error) => toErrorBody(error).statusCode,
    logger,
  })
  app.use(errorHandler(logger))
  return { app, lines }
}

describe('registerAdminRoutes', () => {
  it("answers the envelope with the declared status and message, the handler's data and the scope", async () => {
    const { app } = anApp()
    const res = await request(app).post('/notes/blue%20book').set(KEY).send({ text: 'hi' }).expect(201)
    expect(res.body).toEqual({
      statusCode: 201,
      message: 'Note added',
      data: { book: 'blue book', text: 'hi', label: 'wallet' },
    })
    expect((await request(app).get('/notes?tag=a').set(KEY).expect(200)).body).toEqual({
      statusCode: 200,
      message: 'OK',
      data: ['a'],
    })
  })

  it('lets a handler answer another success message', async () => {
    const { app } = anApp()
    expect((await request(app).post('/notes/quiet').set(KEY).send({ text: 'x' }).expect(201)).body.message).toBe(
      'Noted',
    )
  })

  it('refuses a call without the API key before reading its body, except on public operations', async () => {
    const { app } = anApp()
    const res = await request(app).post('/notes/a').send({ bogus: 1 }).expect(401)
    expect(res.body).toEqual({ statusCode: 401, message: 'Authentication required', error: 'Unauthorized' })
    await request(app).post('/notes/a').set('Authorization', 'Bearer wrong').send({ text: 'x' }).expect(401)
    expect((await request(app).get('/readme').expect(200)).body.data).toBe('hello')
  })

  it('answers 400 naming each field for an invalid, unknown or missing body field, and for a body that is no object', async () => {
    const { app } = anApp()
    const invalid = await request(app).post('/notes/a').set(KEY).send({ text: 1, extra: true }).expect(400)
    expect(invalid.body).toMatchObject({ statusCode: 400, message: 'Validation failed', error: 'Bad Request' })
    expect(invalid.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['extra', 'text'])
    const missing = await request(app).post('/notes/a').set(KEY).expect(400)
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(['text'])
    const array = await request(app)
      .post('/notes/a')
      .set(KEY)
      .send([{ text: 'x' }])
      .expect(400)
    expect(array.body.errors).toEqual([{ field: 'body', message: 'must be an object' }])
    const query = await request(app).get('/notes?other=1').set(KEY).expect(400)
    expect(query.body.errors.map((e: { field: string }) => e.field)).toEqual(['other'])
  })

  it('passes errors to the error handler, and warns about a status the operation does not declare', async () => {
    const { app, lines } = anApp()
    await request(app).post('/notes/closed').set(KEY).send({ text: 'x' }).expect(409)
    expect(lines.filter((line) => line.level === 'warn')).toEqual([])
    const lost = await request(app).post('/notes/lost').set(KEY).send({ text: 'x' }).expect(404)
    expect(lost.body).toEqual({ statusCode: 404, message: 'No such book', error: 'Not Found' })
    expect(lines.filter((line) => line.level === 'warn')).toEqual([
      {
        level: 'warn',
        message: 'Admin operation answered a status it does not declare',
        data: { operation: 'addNote', status: 404 },
      },
    ])
  })

  it('refuses to register a kind whose controller lacks a handler or a DTO, or has one too many', () => {
    // @ts-expect-error listNotes must have its query DTO
    expect(() => anApp({ listNotes: { handle: async () => [] } })).toThrow('notes.listNotes needs a query DTO')
    expect(() => anApp({ readme: { body: NoteDto, handle: async () => 'x' } } as never)).toThrow(
      'notes.readme takes no body DTO',
    )
  })
})
