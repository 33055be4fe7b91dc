import { connect } from 'amqplib'
import { retryQueueName } from '../../api/src/infra/queue/amqp-message'
import { DEAD_LETTER_SUFFIX } from '../../api/src/infra/queue/queue'

/**
 * Removes queues with their retry and dead-letter queues from the broker at `url` (durable queues outlive the test
 * that made them): each entry is a queue name and the retry delays it was consumed with.
 */
export async function deleteQueues(
  url: string,
  queues: readonly (readonly [queue: string, retryDelaysMs: readonly number[]])[],
): Promise<void> {
  const connection = await connect(url)
  try {
    const channel = await connection.createChannel()
    for (const [queue, delays] of queues) {
      for (const name of [queue, `${queue}${DEAD_LETTER_SUFFIX}`, ...delays.map((d) => retryQueueName(queue, d))]) {
        await channel.deleteQueue(name)
      }
    }
    await channel.close()
  } finally {
    await connection.close()
  }
}
