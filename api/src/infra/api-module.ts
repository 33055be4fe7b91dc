import type { Router } from 'express'
import type { Container, ContainerModule, ServiceIdentifier } from 'inversify'
import type { AnyEntity, EntityClass } from '@mikro-orm/core'
import type { AgentEvent } from '@idplane/common/agent-contract/events'
import type { Config } from './config'
import type { ConfigSection } from './config-section'
import type { DeprecatedAlias } from './http/deprecated-aliases'
import type { PlatformEventListener } from './platform-events'
import type { RetentionTask } from './retention/retention-pruner'

/**
 * An agent event as the agents module applied it (stored once per organization and event id): the agent
 * contract's envelope (common/agent-contract/events.ts); `kind` selects the handlers.
 */
export type AppliedAgentEvent = AgentEvent

/**
 * Applies one kind of agent event to a module's own records. Called in the transaction that stores the
 * event, so a handler that throws leaves the event unstored and the agent delivers it again; a handler must
 * therefore be idempotent and never move a record backwards.
 */
export interface AgentEventHandler {
  handle(orgId: string, event: AppliedAgentEvent): Promise<void>
}

/** Counts one module contributes for an organization: named numbers, or one level of named numbers. */
export type ActivityCounts = Record<string, number | Record<string, number>>

/** What one module contributes to the dashboard route. */
export type DashboardEntries = Record<string, number | boolean>

/**
 * A module's counts of its records for one organization: `GET /v1/orgs/activity-count/:orgId` shows every
 * module's counts side by side, and `GET /v1/orgs/dashboard/:orgId` every module's summary of them.
 */
export interface OrganizationCounter<C extends ActivityCounts = ActivityCounts> {
  count(orgId: string): Promise<C>
  /** The module's dashboard entries, from the counts it returned; without it the module is not on the dashboard. */
  summarize?(counts: C): DashboardEntries
}

/**
 * What each resource folder contributes, and all that the platform needs to know of it: adding a module is its
 * folder and one line in `modules/index.ts` (docs/architecture.md, "Adding a module"). `infra/` reads modules only
 * through this interface and never imports from `modules/`.
 */
export interface ApiModule {
  /** Unique; used in logs and error messages. */
  name: string
  // routing-controllers takes controller classes; their constructor signatures vary.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  controllers: Function[]
  /**
   * Whether the module's routes are served under this configuration (a feature flag): an unmounted module's
   * controllers and router are neither routed (404) nor in the OpenAPI document; its bindings, configuration and
   * start/stop still are. Mounted when left out.
   */
  isMounted?(config: Config): boolean
  bindings: ContainerModule
  /**
   * Plain Express routes outside routing-controllers (server-rendered pages), mounted after the JSON routes;
   * they are not in the OpenAPI document.
   */
  router?(container: Container): Router
  /**
   * Old path prefixes served as the documented ones, with a `Deprecation` header (infra/http/deprecated-aliases.ts);
   * only the documented paths are in the OpenAPI document.
   */
  deprecatedAliases?: readonly DeprecatedAlias[]
  /** The MikroORM entities the module persists (listed, never discovered from the file system); none when left out. */
  entities?: readonly EntityClass<AnyEntity>[]
  /** Agent-event kinds the module applies, each with a handler bound in `bindings`. */
  agentEventHandlers?: readonly { kind: AgentEvent['kind']; handler: ServiceIdentifier<AgentEventHandler> }[]
  /**
   * Listeners for the platform events every module publishes (ModuleRegistry.publish), each bound in `bindings`;
   * called in the publisher's transaction.
   */
  platformEventListeners?: readonly ServiceIdentifier<PlatformEventListener>[]
  /** Counts of the module's records of an organization; a class bound in `bindings`. */
  counter?: ServiceIdentifier<OrganizationCounter>
  /** The module's settings, read and validated with the rest of the configuration (infra/config-section.ts). */
  config?: ConfigSection
  /**
   * The module's finished rows to prune after their retention (its own settings), each through its repository;
   * every process runs them in the shared retention pass (infra/retention/retention-pruner.ts).
   */
  retention?(container: Container): readonly RetentionTask[]
  /**
   * Starts the module's background work (queue consumers, timers, resuming work) once the container is loaded,
   * in module order. Not called when the runtime is built without workers (`startWorkers: false`).
   */
  start?(container: Container): Promise<void> | void
  /**
   * Stops background work; called in reverse module order by the runtime's close, before the agent runtime, queue
   * and database close, whether or not `start` ran (requests may have begun work too).
   */
  stop?(container: Container): Promise<void> | void
  /**
   * Called by organization deletion before the organization's rows go (they cascade), for what the database does
   * not hold: a running agent, files, remote resources. A hook that throws stops the deletion.
   */
  onOrganizationDeleted?(container: Container, orgId: string): Promise<void>
}
