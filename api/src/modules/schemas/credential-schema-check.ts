import { injectable } from 'inversify'

/** Checks a JSON-LD credential against the platform-published JSON schema its `credentialSchema` names. */
@injectable()
export class CredentialSchemaCheck {
  public async check(_orgId: string, _credential: Record<string, unknown>): Promise<void> {
    // replaced by the schemas module at merge
  }
}
