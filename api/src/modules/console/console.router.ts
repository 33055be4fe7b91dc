import { promises as fs } from 'node:fs'
import path from 'node:path'
import express, { type Request, type Response, type Router } from 'express'
import type { Container } from 'inversify'
import { NotFoundError } from '@idplane/common'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { toErrorBody } from '../../infra/http/error-handler'
import { TOKENS } from '../../infra/tokens'
import { consoleConfig } from './console.config'

/** Where the console is served; its build (console/vite.config.ts) uses the same base. */
export const CONSOLE_PATH = '/console'

/** A file of the build: `assets/<name>.<ext>` (content-hashed by the build) or a top-level file such as the icon. */
const FILE_PATH = /^(assets\/)?[A-Za-z0-9_-][A-Za-z0-9._-]*\.([a-z0-9]+)$/

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
}

/** Precompressed copies the build writes beside each asset, best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const

/**
 * `GET /console/...` (no token): the built single-page app. Asset files are served as built, precompressed when
 * the browser accepts it, and cached for a year (their names change with their content); every other path is the
 * app's own route and answers index.html (no-store, like every answer). A missing build is a 404 that says so.
 */
export function consoleRoutes(container: Container): Router {
  const settings = sectionOf(container.get<Config>(TOKENS.Config), consoleConfig)
  const router = express.Router()
  if (!settings.enabled) return router

  const fail = (res: Response, error: unknown): void => {
    if (res.headersSent) return void res.end()
    const { body, headers } = toErrorBody(error)
    res.set(headers).status(body.statusCode).json(body)
  }

  router.get(`${CONSOLE_PATH}{/*rest}`, async (req: Request, res: Response) => {
    const relative = req.path.slice(CONSOLE_PATH.length + 1)
    const file = FILE_PATH.exec(relative)
    try {
      if (file) await sendFile(req, res, settings.dir, relative, file[2] ?? '', file[1] !== undefined)
      else await sendIndex(res, settings.dir)
    } catch (error) {
      fail(res, error)
    }
  })
  return router
}

/**
 * Where a browser following a short invitation link goes when the console is on: the wallet's receive page, with
 * the invitation's own query (`oob=`, or the legacy `c_i=`/`d_m=`), so the page's URL is still a valid invitation
 * URL for any wallet that follows the redirect. Undefined when the target carries no invitation parameter.
 */
export function consoleInvitationPath(targetUrl: string): string | undefined {
  let target: URL
  try {
    target = new URL(targetUrl)
  } catch {
    return undefined
  }
  const hasInvitation = ['oob', 'c_i', 'd_m'].some((name) => target.searchParams.has(name))
  return hasInvitation ? `${CONSOLE_PATH}/wallet/receive${target.search}` : undefined
}

async function sendIndex(res: Response, dir: string): Promise<void> {
  let page: Buffer
  try {
    page = await fs.readFile(path.join(dir, 'index.html'))
  } catch (error) {
    throw new NotFoundError('The web console is not built here: run `make build` (CONSOLE_DIR)', { cause: error })
  }
  res.type('html').send(page)
}

async function sendFile(
  req: Request,
  res: Response,
  dir: string,
  relative: string,
  extension: string,
  isHashed: boolean,
): Promise<void> {
  const plain = path.join(dir, relative)
  const accepted = ENCODINGS.filter((encoding) => req.acceptsEncodings(encoding.name) === encoding.name)
  let chosen: { file: string; encoding?: string } | undefined
  for (const encoding of accepted) {
    if (await isFile(plain + encoding.suffix)) {
      chosen = { file: plain + encoding.suffix, encoding: encoding.name }
      break
    }
  }
  if (!chosen && (await isFile(plain))) chosen = { file: plain }
  if (!chosen) throw new NotFoundError('No such console file')
  res.set('Content-Type', CONTENT_TYPES[extension] ?? 'application/octet-stream')
  res.set('Vary', 'Accept-Encoding')
  if (chosen.encoding) res.set('Content-Encoding', chosen.encoding)
  // Hashed names change with their content: safe to keep; other files follow the global no-store.
  if (isHashed) res.set('Cache-Control', 'public, max-age=31536000, immutable')
  await new Promise<void>((resolve, reject) => {
    res.sendFile(chosen.file, { cacheControl: false, lastModified: false }, (error) =>
      error ? reject(error) : resolve(),
    )
  })
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile()
  } catch {
    return false
  }
}
