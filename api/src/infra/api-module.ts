import type { ContainerModule } from 'inversify'

/** What each resource folder contributes: its controllers and its container bindings. */
export interface ApiModule {
  name: string
  // routing-controllers takes controller classes; their constructor signatures vary.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  controllers: Function[]
  bindings: ContainerModule
}
