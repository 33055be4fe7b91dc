import 'reflect-metadata'
import { Container, ContainerModule, injectable } from 'inversify'
import { Entity, PrimaryKey } from '@mikro-orm/decorators/legacy'
import type { ActivityCounts, AgentEventHandler, ApiModule, AppliedAgentEvent, OrganizationCounter } from './api-module'
import { sectionOf, type ConfigSection } from './config-section'
import { loadConfig } from './config'
import { platformEvent, type PlatformEvent, type PlatformEventListener } from './platform-events'
import { ModuleRegistry, configSectionsOf, controllersOf, entitiesOf } from './module-registry'

@Entity({ tableName: 'widgets' })
class Widget {
  @PrimaryKey({ type: 'uuid' })
  id!: string
}

@injectable()
class WidgetEventsHandler implements AgentEventHandler {
  public readonly applied: { orgId: string; event: AppliedAgentEvent }[] = []

  public async handle(orgId: string, event: AppliedAgentEvent): Promise<void> {
    this.applied.push({ orgId, event })
  }
}

type WidgetCounts = { widgets: Record<'new' | 'done', number> }

@injectable()
class WidgetsCounter implements OrganizationCounter<WidgetCounts> {
  public async count(orgId: string): Promise<WidgetCounts> {
    return { widgets: { new: orgId.length, done: 1 } }
  }

  public summarize(counts: WidgetCounts) {
    return { newWidgets: counts.widgets.new }
  }
}

class WidgetController {}

const widgetConfig: ConfigSection<{ batchSize: number }> = {
  name: 'widgets',
  read: (env) => ({ batchSize: env.int('WIDGET_BATCH_SIZE', 25, { min: 1, max: 100 }) }),
}

/** A module as a new resource folder would declare it, recording what the platform calls. */
function aWidgetModule(calls: string[], overrides: Partial<ApiModule> = {}): ApiModule {
  return {
    name: 'widgets',
    controllers: [WidgetController],
    entities: [Widget],
    agentEventHandlers: [{ kind: 'connection', handler: WidgetEventsHandler }],
    counter: WidgetsCounter,
    config: widgetConfig,
    bindings: new ContainerModule(({ bind }) => {
      bind(WidgetEventsHandler).toSelf().inSingletonScope()
      bind(WidgetsCounter).toSelf().inSingletonScope()
    }),
    start: () => void calls.push('start widgets'),
    stop: () => void calls.push('stop widgets'),
    onOrganizationDeleted: async (_container, orgId) => void calls.push(`widgets: ${orgId} deleted`),
    ...overrides,
  }
}

/** A second module with only a counter and lifecycle, to see the order and the merge. */
function aGadgetModule(calls: string[], counts: ActivityCounts = { gadgets: 2 }): ApiModule {
  @injectable()
  class GadgetsCounter implements OrganizationCounter {
    public async count(): Promise<ActivityCounts> {
      return counts
    }
  }
  return {
    name: 'gadgets',
    controllers: [],
    counter: GadgetsCounter,
    bindings: new ContainerModule(({ bind }) => void bind(GadgetsCounter).toSelf().inSingletonScope()),
    start: () => void calls.push('start gadgets'),
    stop: () => void calls.push('stop gadgets'),
  }
}

function load(modules: ApiModule[]): { registry: ModuleRegistry; container: Container } {
  const container = new Container({ defaultScope: 'Singleton' })
  const registry = new ModuleRegistry(modules, container)
  container.load(...modules.map((module) => module.bindings))
  return { registry, container }
}

const ORG_ID = '9b2f4c1e-5d6a-4b7c-8d9e-0f1a2b3c4d5e'

const anEvent = (kind: AppliedAgentEvent['kind']): AppliedAgentEvent => ({
  id: 'evt-1',
  kind,
  agentLabel: 'Acme wallet',
  occurredAt: '2026-11-24T00:00:00.000Z',
  record: { state: 'completed' },
})

describe('a module declaring itself', () => {
  it('has its entities, controllers and configuration section picked up', () => {
    const widgets = aWidgetModule([])
    const gadgets = aGadgetModule([])
    expect(entitiesOf([widgets, gadgets, widgets])).toEqual([Widget])
    expect(controllersOf([widgets, gadgets])).toEqual([WidgetController])
    expect(configSectionsOf([widgets, gadgets])).toEqual([widgetConfig])
  })

  it('has its configuration section read and validated with the rest of the configuration', () => {
    const sections = configSectionsOf([aWidgetModule([])])
    const config = loadConfig({ DATA_DIR: '/tmp/idplane-unit', WIDGET_BATCH_SIZE: '40' }, sections)
    expect(sectionOf(config, widgetConfig)).toEqual({ batchSize: 40 })
    expect(() => loadConfig({ DATA_DIR: '/tmp/idplane-unit', WIDGET_BATCH_SIZE: '0' }, sections)).toThrow(
      /WIDGET_BATCH_SIZE: must be at least 1/,
    )
    // A configuration built without the section (a test's literal object) gets the section's defaults.
    expect(sectionOf(loadConfig({ DATA_DIR: '/tmp/idplane-unit' }), widgetConfig)).toEqual({ batchSize: 25 })
  })

  it('refuses two sections of one name', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/idplane-unit' }, [widgetConfig, widgetConfig])).toThrow(/declared twice/)
  })

  it('has the agent events of its kinds dispatched to its handler, and no others', async () => {
    const { registry, container } = load([aWidgetModule([]), aGadgetModule([])])
    expect(registry.handles('connection')).toBe(true)
    expect(registry.handles('proof')).toBe(false)
    await registry.dispatch(ORG_ID, anEvent('connection'))
    await registry.dispatch(ORG_ID, anEvent('proof'))
    expect(container.get(WidgetEventsHandler).applied).toEqual([{ orgId: ORG_ID, event: anEvent('connection') }])
  })

  it('has its counts shown beside the other modules’ and its summary on the dashboard', async () => {
    const { registry } = load([aGadgetModule([]), aWidgetModule([])])
    expect(await registry.countsFor(ORG_ID)).toEqual({ gadgets: 2, widgets: { new: ORG_ID.length, done: 1 } })
    // The gadgets module declares no summary, so it is not on the dashboard.
    expect(await registry.dashboardFor(ORG_ID)).toEqual({ newWidgets: ORG_ID.length })
  })

  it('refuses a count name another module contributes already', async () => {
    const { registry } = load([aWidgetModule([]), aGadgetModule([], { widgets: 3 })])
    await expect(registry.countsFor(ORG_ID)).rejects.toThrow(/gadgets contributes the count "widgets"/)
  })

  it('is started in module order and stopped in reverse order', async () => {
    const calls: string[] = []
    const { registry } = load([aWidgetModule(calls), aGadgetModule(calls)])
    await registry.start()
    await registry.stop()
    expect(calls).toEqual(['start widgets', 'start gadgets', 'stop gadgets', 'stop widgets'])
  })

  it('is stopped again when a later module fails to start', async () => {
    const calls: string[] = []
    const failing = aWidgetModule(calls, {
      name: 'failing',
      start: () => {
        throw new Error('no broker')
      },
      stop: () => void calls.push('stop failing'),
    })
    const { registry } = load([aGadgetModule(calls), failing])
    await expect(registry.start()).rejects.toThrow('no broker')
    expect(calls).toEqual(['start gadgets', 'stop gadgets'])
  })

  it('is asked to stop even when a module after it fails to stop', async () => {
    const calls: string[] = []
    const failing = aGadgetModule(calls)
    failing.stop = () => {
      throw new Error('stuck')
    }
    const { registry } = load([aWidgetModule(calls), failing])
    await expect(registry.stop()).rejects.toThrow('stuck')
    expect(calls).toEqual(['stop widgets'])
  })

  it('hears of an organization’s deletion', async () => {
    const calls: string[] = []
    const { registry } = load([aGadgetModule(calls), aWidgetModule(calls)])
    await registry.organizationDeleted(ORG_ID)
    expect(calls).toEqual([`widgets: ${ORG_ID} deleted`])
  })

  it('hears the platform events every module publishes, in module order', async () => {
    const heard: string[] = []
    @injectable()
    class Recorder implements PlatformEventListener {
      public async onEvents(events: readonly PlatformEvent[]): Promise<void> {
        heard.push(...events.map((event) => `${event.type} ${event.orgId}`))
      }
    }
    const listening = aGadgetModule([])
    listening.platformEventListeners = [Recorder]
    listening.bindings = new ContainerModule(({ bind }) => void bind(Recorder).toSelf().inSingletonScope())
    const { registry } = load([aWidgetModule([]), listening])
    await registry.publish([])
    await registry.publish([platformEvent('widget.made', { orgId: ORG_ID }, { id: 'w1' })])
    expect(heard).toEqual([`widget.made ${ORG_ID}`])
  })

  it('hears what a batch publishes at once, in publishing order, after the batch and only when it succeeds', async () => {
    const calls: string[][] = []
    @injectable()
    class Recorder implements PlatformEventListener {
      public async onEvents(events: readonly PlatformEvent[]): Promise<void> {
        calls.push(events.map((event) => event.type))
      }
    }
    const listening = aGadgetModule([])
    listening.platformEventListeners = [Recorder]
    listening.bindings = new ContainerModule(({ bind }) => void bind(Recorder).toSelf().inSingletonScope())
    const { registry } = load([listening])
    const made = (type: string) => platformEvent(type, { orgId: ORG_ID }, {})
    let lateDone: Promise<void> | undefined
    const result = await registry.publishingTogether(async () => {
      await registry.publish([made('a.one')])
      await registry.publish([made('a.two'), made('a.three')])
      expect(calls).toEqual([])
      // Work started here and not awaited publishes after the batch ended: heard on its own, not lost.
      lateDone = new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() => registry.publish([made('late')]))
      return 'done'
    })
    expect(result).toBe('done')
    expect(calls).toEqual([['a.one', 'a.two', 'a.three']])
    await lateDone
    expect(calls).toEqual([['a.one', 'a.two', 'a.three'], ['late']])

    await expect(
      registry.publishingTogether(async () => {
        await registry.publish([made('b.one')])
        throw new Error('handler failed')
      }),
    ).rejects.toThrow('handler failed')
    await registry.publishingTogether(async () => undefined)
    expect(calls).toHaveLength(2)
  })

  it('has its retention tasks run in the shared pass, in module order', async () => {
    const pruned: string[] = []
    const retaining = aGadgetModule([])
    retaining.retention = () => [
      { table: 'gadgets', pruneBatch: async () => (pruned.push('gadgets'), 0) },
      { table: 'gadget_logs', pruneBatch: async () => (pruned.push('gadget_logs'), 0) },
    ]
    const { registry } = load([aWidgetModule([]), retaining])
    const tasks = registry.retentionTasks()
    expect(tasks.map((task) => task.table)).toEqual(['gadgets', 'gadget_logs'])
    for (const task of tasks) await task.pruneBatch(10)
    expect(pruned).toEqual(['gadgets', 'gadget_logs'])
  })
})
