import { useState } from 'preact/hooks'
import { api, call } from '../../api/client'
import {
  ActionResult,
  Button,
  Empty,
  Loaded,
  Page,
  Section,
  SelectField,
  StateBadge,
  TextField,
  formatTime,
} from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

export function ConnectionDetailPage(props: { connectionId: string }) {
  const { org } = useOrg()
  const orgId = org.id
  const path = { orgId, connectionId: props.connectionId }
  const connection = useLoad(
    async () => (await call(() => api.GET('/v1/orgs/{orgId}/connections/{connectionId}', { params: { path } }))).data,
    [orgId, props.connectionId],
    { pollMs: 3_000, keepPolling: (record) => record?.state !== 'completed' },
  )
  return (
    <Loaded state={connection}>
      {(record) =>
        record ? (
          <Page title={record.theirLabel ?? 'Connection'} actions={<StateBadge state={record.state} />}>
            <Section title="Details">
              <dl class="facts">
                <dt>Connection id</dt>
                <dd>
                  <code class="break">{record.id}</code>
                </dd>
                <dt>Our DID</dt>
                <dd>
                  <code class="break">{record.did ?? '—'}</code>
                </dd>
                <dt>Their DID</dt>
                <dd>
                  <code class="break">{record.theirDid ?? '—'}</code>
                </dd>
                <dt>Role</dt>
                <dd>{record.role ?? '—'}</dd>
                <dt>Created</dt>
                <dd>{formatTime(record.createdAt)}</dd>
              </dl>
            </Section>
            <Messages connectionId={record.id} />
            <Questions connectionId={record.id} />
          </Page>
        ) : null
      }
    </Loaded>
  )
}

function Messages(props: { connectionId: string }) {
  const { org } = useOrg()
  const path = { orgId: org.id, connectionId: props.connectionId }
  const messages = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/orgs/{orgId}/basic-message/{connectionId}', { params: { path, query: { pageSize: 100 } } }),
        )
      ).data?.data ?? [],
    [org.id, props.connectionId],
    { pollMs: 3_000 },
  )
  const [content, setContent] = useState('')
  const action = useAction()
  return (
    <Section title="Messages">
      <Loaded state={messages}>
        {(list) =>
          list.length === 0 ? (
            <Empty>No messages yet. Write the first one below.</Empty>
          ) : (
            <ol class="messages" aria-live="polite">
              {list.map((message) => (
                <li key={message.id} class={message.role === 'sender' ? 'mine' : 'theirs'}>
                  <span class="visually-hidden">{message.role === 'sender' ? 'You' : 'They'}: </span>
                  {message.content}
                  <span class="muted block">{formatTime(message.sentTime ?? message.createdAt)}</span>
                </li>
              ))}
            </ol>
          )
        }
      </Loaded>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            await call(() =>
              api.POST('/v1/orgs/{orgId}/basic-message/{connectionId}', { params: { path }, body: { content } }),
            )
            setContent('')
            messages.reload()
          })
        }}
      >
        <TextField label="Message" value={content} onValue={setContent} required />
        <Button type="submit" kind="primary" busy={action.isBusy}>
          Send
        </Button>
      </form>
      <ActionResult action={action} />
    </Section>
  )
}

function Questions(props: { connectionId: string }) {
  const { org } = useOrg()
  const orgId = org.id
  const questions = useLoad(
    async () =>
      (
        (await call(() => api.GET('/v1/orgs/{orgId}/question-answer/question', { params: { path: { orgId } } })))
          .data ?? []
      ).filter((record) => record.connectionId === props.connectionId),
    [orgId, props.connectionId],
    { pollMs: 3_000 },
  )
  const [question, setQuestion] = useState('')
  const [responses, setResponses] = useState('Yes, No')
  const [answers, setAnswers] = useState<Record<string, string>>({})
  const action = useAction()
  return (
    <Section title="Questions and answers">
      <Loaded state={questions}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              No questions on this connection. Ask one below; the holder picks one of the answers you offer.
            </Empty>
          ) : (
            <ul class="plain">
              {list.map((record) => (
                <li key={record.id} class="card inner">
                  <p>
                    <strong>{record.questionText}</strong> <StateBadge state={record.state} />
                  </p>
                  {record.response ? (
                    <p>Answer: {record.response}</p>
                  ) : record.role === 'responder' && record.state === 'question-received' ? (
                    <div class="row">
                      <SelectField
                        label="Your answer"
                        value={answers[record.id] ?? record.validResponses[0]?.text ?? ''}
                        onValue={(value) => setAnswers({ ...answers, [record.id]: value })}
                        options={record.validResponses.map((response) => response.text)}
                      />
                      <Button
                        onClick={() =>
                          void action.run(async () => {
                            await call(() =>
                              api.POST('/v1/orgs/{orgId}/question-answer/answer/{questionAnswerId}', {
                                params: { path: { orgId, questionAnswerId: record.id } },
                                body: { response: answers[record.id] ?? record.validResponses[0]?.text ?? '' },
                              }),
                            )
                            questions.reload()
                          })
                        }
                      >
                        Answer
                      </Button>
                    </div>
                  ) : (
                    <p class="muted">
                      Waiting for the answer ({record.validResponses.map((response) => response.text).join(' / ')}).
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            await call(() =>
              api.POST('/v1/orgs/{orgId}/question-answer/question/{connectionId}', {
                params: { path: { orgId, connectionId: props.connectionId } },
                body: {
                  question,
                  validResponses: responses
                    .split(',')
                    .map((text) => ({ text: text.trim() }))
                    .filter((response) => response.text),
                },
              }),
            )
            setQuestion('')
            questions.reload()
          })
        }}
      >
        <TextField label="Question" value={question} onValue={setQuestion} required />
        <TextField label="Possible answers" value={responses} onValue={setResponses} required hint="Comma-separated." />
        <ActionResult action={action} />
        <Button type="submit" busy={action.isBusy}>
          Ask
        </Button>
      </form>
    </Section>
  )
}
