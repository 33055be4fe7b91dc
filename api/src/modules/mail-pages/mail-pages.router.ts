import express, { type NextFunction, type Request, type Response, type Router } from 'express'
import { plainToInstance } from 'class-transformer'
import { isUUID, validate } from 'class-validator'
import type { Container } from 'inversify'
import { Logger } from '@idplane/common'
import type { Config } from '../../infra/config'
import { toErrorBody } from '../../infra/http/error-handler'
import { clientAddressOf } from '../../infra/rate-limit/client-ip'
import { TOKENS } from '../../infra/tokens'
import { EmailVerificationService } from '../auth/email-verification.service'
import { VerifyEmailQuery } from '../auth/dto/verify-email.query'
import { withRoles } from '../invitations/invitation-roles'
import { InvitationsRepository } from '../invitations/invitations.repository'
import { MembershipsRepository } from '../memberships/memberships.repository'
import { sendPage } from './html-page'
import {
  INVITATION_PAGE_PATH,
  invitationLinkBrokenPage,
  invitationMissingPage,
  invitationPage,
} from './invitation.page'
import { VERIFY_EMAIL_PAGE_PATH, confirmPage, verificationFailedPage, verifiedPage } from './verify-email.page'

/** A verification form body is two short fields; anything larger is not ours. */
const FORM_BODY_LIMIT = '2kb'

/**
 * The pages the mailed links open when the client alias points at the API itself (the embedded default):
 * plain server-rendered HTML, no script, a strict CSP of their own (html-page.ts).
 */
export function mailPages(container: Container): Router {
  const publicUrl = container.get<Config>(TOKENS.Config).http.publicUrl.replace(/\/$/, '')
  const logger = container.get(Logger).child({ component: 'mail-pages' })
  const verifications = container.get(EmailVerificationService)
  const invitations = container.get(InvitationsRepository)
  const roles = container.get(MembershipsRepository)
  const router = express.Router()

  /** Any error becomes a page with the status and message the JSON API would answer. */
  const failed = (res: Response, error: unknown, title: string, email?: string): void => {
    const { body, headers } = toErrorBody(error)
    if (body.statusCode >= 500) logger.error('Mail page failed', { error: error as Error })
    res.set(headers)
    sendPage(res, body.statusCode, title, verificationFailedPage(publicUrl, body.message, email))
  }

  const readVerification = async (source: unknown): Promise<VerifyEmailQuery | undefined> => {
    const input = plainToInstance(VerifyEmailQuery, source ?? {})
    const problems = await validate(input, { whitelist: true, forbidNonWhitelisted: false })
    return problems.length === 0 ? input : undefined
  }

  router.get(VERIFY_EMAIL_PAGE_PATH, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const input = await readVerification(req.query)
      if (!input) {
        const message = 'The link is incomplete or damaged: open the link from the verification mail again.'
        return sendPage(res, 400, 'Verification failed', verificationFailedPage(publicUrl, message))
      }
      sendPage(res, 200, 'Verify your e-mail address', confirmPage(publicUrl, input.email, input.verificationCode))
    } catch (error) {
      next(error)
    }
  })

  router.post(
    VERIFY_EMAIL_PAGE_PATH,
    express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT }),
    async (req: Request, res: Response) => {
      const input = await readVerification(req.body)
      if (!input) {
        const message = 'The form was incomplete or damaged: open the link from the verification mail again.'
        return sendPage(res, 400, 'Verification failed', verificationFailedPage(publicUrl, message))
      }
      try {
        await verifications.verify(input.email, input.verificationCode, clientAddressOf(req))
        sendPage(res, 200, 'Address verified', verifiedPage(publicUrl, input.email))
      } catch (error) {
        failed(res, error, 'Verification failed', input.email)
      }
    },
  )

  router.get(INVITATION_PAGE_PATH, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const invitationId = req.query.invitationId
      if (typeof invitationId !== 'string' || !isUUID(invitationId)) {
        return sendPage(res, 400, 'Broken link', invitationLinkBrokenPage())
      }
      const invitation = await invitations.findForLink(invitationId)
      if (!invitation) return sendPage(res, 404, 'Invitation not found', invitationMissingPage())
      const [roled] = withRoles([invitation], await roles.listDefinitions())
      if (!roled) return sendPage(res, 404, 'Invitation not found', invitationMissingPage())
      sendPage(res, 200, `Invitation to ${invitation.organization.name}`, invitationPage(publicUrl, roled))
    } catch (error) {
      next(error)
    }
  })

  return router
}
