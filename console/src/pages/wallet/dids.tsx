import { useState } from 'preact/hooks'
import { api, call } from '../../api/client'
import { ActionResult, Button, Empty, Loaded, Page, Section, SelectField, formatTime } from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'

type Method = 'key' | 'peer'

export function WalletDidsPage() {
  const dids = useLoad(async () => (await call(() => api.GET('/v1/did'))).data ?? [], [])
  const [method, setMethod] = useState<Method>('key')
  const action = useAction()
  return (
    <Page title="DIDs" lead="The decentralized identifiers your wallet holds keys for.">
      <Section title="Your DIDs">
        <Loaded state={dids}>
          {(list) =>
            list.length === 0 ? (
              <Empty>No DIDs yet. Connections make their own; create one below to have a lasting identifier.</Empty>
            ) : (
              <ul class="plain">
                {list.map((entry) => (
                  <li key={entry.did}>
                    <code class="break">{entry.did}</code>{' '}
                    <span class="muted">
                      {entry.method}, {formatTime(entry.createdAt)}
                    </span>
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </Section>
      <Section title="Create a DID">
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault()
            void action.run(async () => {
              const created = await call(() => api.POST('/v1/did', { body: { method, keyType: 'ed25519' } }))
              dids.reload()
              return `Created ${created.data?.did ?? 'the DID'}`
            })
          }}
        >
          <SelectField<Method>
            label="Method"
            value={method}
            onValue={setMethod}
            options={[
              { value: 'key', label: 'did:key' },
              { value: 'peer', label: 'did:peer' },
            ]}
          />
          <ActionResult action={action} />
          <Button type="submit" kind="primary" busy={action.isBusy}>
            Create
          </Button>
        </form>
      </Section>
    </Page>
  )
}
