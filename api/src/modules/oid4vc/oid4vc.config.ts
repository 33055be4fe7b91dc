import type { Config } from '../../infra/config'
import { sectionOf, type ConfigSection } from '../../infra/config-section'

export interface OpenId4VcConfig {
  /**
   * HIDE_EXPERIMENTAL_OIDC_CONTROLLERS (spec: Conventions 5): while true the OpenID4VC and x509 routes (modules
   * oid4vc, oid4vp, x509) are not served and not in the explorer, and agents start without AGENT_OPENID4VC.
   */
  readonly hideExperimentalOidcControllers: boolean
}

/** @default true: the spec hides the experimental OIDC and x509 controllers unless the flag is false. */
export const DEFAULT_HIDE_EXPERIMENTAL_OIDC_CONTROLLERS = true

export const oid4vcConfig: ConfigSection<OpenId4VcConfig> = {
  name: 'oid4vc',
  read: (env) => ({
    hideExperimentalOidcControllers: env.bool(
      'HIDE_EXPERIMENTAL_OIDC_CONTROLLERS',
      DEFAULT_HIDE_EXPERIMENTAL_OIDC_CONTROLLERS,
    ),
  }),
}

/** Whether the OpenID4VC and x509 routes are served (and agents launched with OpenID4VC): the flag is false. */
export function areOidcControllersServed(config: Config): boolean {
  return !sectionOf(config, oid4vcConfig).hideExperimentalOidcControllers
}
