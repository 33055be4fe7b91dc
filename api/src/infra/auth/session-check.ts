/**
 * Whether the session (`sid`) of a verified access token is still open. The authorization checker asks it
 * on every authenticated request; the auth module provides it (SessionRevocationsService), so infra does
 * not depend on modules.
 */
export abstract class SessionCheck {
  /** @throws UnauthenticatedError when the session was revoked */
  public abstract assertActive(sessionId: string): Promise<void>
}
