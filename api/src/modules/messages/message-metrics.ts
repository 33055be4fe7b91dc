import { Counter, type Registry, type RegistryContentType } from 'prom-client'

/** Question-answer and basic-message exchanges (STYLE.md naming). */
export class MessageMetrics {
  public readonly questionStateChanges: Counter<'state'>
  public readonly basicMessages: Counter<'direction'>

  public constructor(registry: Registry<RegistryContentType>) {
    this.questionStateChanges = new Counter({
      name: 'idplane_api_question_answer_state_changes_total',
      help: 'Question-answer records that entered a state, by state',
      labelNames: ['state'] as const,
      registers: [registry],
    })
    this.basicMessages = new Counter({
      name: 'idplane_api_basic_messages_total',
      help: 'Basic messages recorded, by direction (sent or received)',
      labelNames: ['direction'] as const,
      registers: [registry],
    })
  }
}
