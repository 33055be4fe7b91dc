import { ContainerModule, injectable } from 'inversify'
import type { ApiModule } from '../../api/src/infra/api-module'
import type { PlatformEvent, PlatformEventListener } from '../../api/src/infra/platform-events'
import { API_MODULES } from '../../api/src/modules'

/** The platform events published while the recorder's module is in API_MODULES. */
export class EventRecorder {
  public readonly events: PlatformEvent[] = []

  public ofType(type: string): PlatformEvent[] {
    return this.events.filter((event) => event.type === type)
  }
}

/**
 * A module that only listens to platform events (as the webhooks module does), to push onto API_MODULES before
 * startApi(): what the organizations' webhooks would be given.
 */
export function eventRecordingModule(recorder: EventRecorder): ApiModule {
  @injectable()
  class RecordingListener implements PlatformEventListener {
    public async onEvents(events: readonly PlatformEvent[]): Promise<void> {
      recorder.events.push(...events)
    }
  }
  return {
    name: 'event-recorder',
    controllers: [],
    platformEventListeners: [RecordingListener],
    bindings: new ContainerModule(({ bind }) => void bind(RecordingListener).toSelf().inSingletonScope()),
  }
}

/**
 * Records every platform event of the APIs this test file starts (call at the top of the file, before startApi):
 * the array fills as modules publish.
 */
export function recordPlatformEvents(): PlatformEvent[] {
  const recorder = new EventRecorder()
  API_MODULES.push(eventRecordingModule(recorder))
  return recorder.events
}
