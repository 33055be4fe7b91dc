import { connect } from 'amqplib'
import { MAIL_QUEUE } from '../../api/src/infra/mail/mail.service'
import { retryQueueName } from '../../api/src/infra/queue/amqp-message'
import { DEAD_LETTER_SUFFIX, DEFAULT_RETRY_DELAYS_MS } from '../../api/src/infra/queue/queue'
import { BULK_QUEUE, ROW_JOB_RETRY_DELAYS_MS } from '../../api/src/modules/bulk-issuance/bulk-execution.service'
import { CRED_DEF_QUEUE, CRED_DEF_JOB_RETRY_DELAYS_MS } from '../../api/src/modules/cred-defs/cred-defs.service'

/**
 * Removes queues with their retry and dead-letter queues from the broker at `url` (durable queues outlive the test
 * that made them): each entry is a queue name and the retry delays it was consumed with.
 */
async function deleteQueues(
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

/**
 * Removes every queue an API with QUEUE_NAME_PREFIX `prefix` declares on the broker (mail, bulk rows, credential
 * definitions, each with its retry and dead-letter queues); nothing without AMQP_URL. Left behind, a few thousand
 * accumulated over a day of test runs on a machine whose broker CI shares.
 */
export async function deleteApiQueues(prefix: string | undefined, url = process.env.AMQP_URL): Promise<void> {
  if (!url || prefix === undefined) return
  await deleteQueues(url, [
    [`${prefix}${MAIL_QUEUE}`, DEFAULT_RETRY_DELAYS_MS],
    [`${prefix}${BULK_QUEUE}`, ROW_JOB_RETRY_DELAYS_MS],
    [`${prefix}${CRED_DEF_QUEUE}`, CRED_DEF_JOB_RETRY_DELAYS_MS],
  ])
}
