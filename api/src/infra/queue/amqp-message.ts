import { randomUUID } from 'node:crypto'
import { Message, Options } from 'amqplib'
import { InvalidInputError } from '@idplane/common'
import { QueueMessage } from './queue'

/** Carries `attempt` between deliveries; internal, never shown to handlers. */
export const ATTEMPT_HEADER = 'x-idplane-attempt'

/** `<queue>.retry.<delayMs>`: messages wait here `delayMs` (queue TTL), then dead-letter back to `<queue>`. */
export function retryQueueName(queue: string, delayMs: number): string {
  return `${queue}.retry.${delayMs}`
}

/** Arguments of a retry queue: a fixed TTL and the default exchange routing expired messages home. */
export function retryQueueArguments(queue: string, delayMs: number): Options.AssertQueue {
  return {
    durable: true,
    arguments: { 'x-message-ttl': delayMs, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': queue },
  }
}

export interface OutgoingMessage {
  content: Buffer
  options: Options.Publish
}

/** @throws InvalidInputError when the payload cannot be serialized as JSON */
export function encodeMessage(message: Pick<QueueMessage, 'id' | 'payload' | 'attempt' | 'headers'>): OutgoingMessage {
  let json: string | undefined
  try {
    json = JSON.stringify(message.payload)
  } catch (error) {
    throw new InvalidInputError(
      'Queue payload must be serializable as JSON',
      [{ field: 'payload', message: 'not JSON' }],
      {
        cause: error,
      },
    )
  }
  return {
    content: Buffer.from(json ?? 'null'),
    options: {
      persistent: true,
      messageId: message.id,
      contentType: 'application/json',
      timestamp: Math.floor(Date.now() / 1000),
      headers: { ...message.headers, [ATTEMPT_HEADER]: message.attempt },
    },
  }
}

/**
 * Turns a delivery back into a QueueMessage. Only string headers are the publisher's; RabbitMQ's own
 * dead-lettering headers (`x-death`, `x-first-death-*`, `x-last-death-*`) and ours are left out.
 * @throws InvalidInputError when the body is not JSON (the message is then dead-lettered at once), unless
 *   `isLenient`, which returns the body as a string
 */
export function decodeMessage(queue: string, delivery: Message, options: { isLenient?: boolean } = {}): QueueMessage {
  const raw = delivery.properties.headers ?? {}
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'string' || key === ATTEMPT_HEADER) continue
    if (key.startsWith('x-first-death-') || key.startsWith('x-last-death-')) continue
    headers[key] = value
  }
  const attemptValue: unknown = raw[ATTEMPT_HEADER]
  const attempt =
    typeof attemptValue === 'number' && Number.isInteger(attemptValue) && attemptValue >= 1 ? attemptValue : 1
  const messageId: unknown = delivery.properties.messageId
  const id = typeof messageId === 'string' && messageId !== '' ? messageId : randomUUID()
  let payload: unknown
  try {
    payload = JSON.parse(delivery.content.toString('utf8'))
  } catch (error) {
    // A dead letter may be such a body: peeking shows it as text rather than failing.
    if (options.isLenient) return { id, queue, payload: delivery.content.toString('utf8'), attempt, headers }
    throw new InvalidInputError('Queue message body is not JSON', [{ field: 'content', message: 'not JSON' }], {
      cause: error,
    })
  }
  return { id, queue, payload, attempt, headers }
}
