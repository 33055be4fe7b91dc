import { useState } from 'preact/hooks'
import { api, ApiError, call } from '../../api/client'
import { ActionResult, Button, CopyField, Empty, Loaded, Notice, Page, Section, formatTime } from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

/** Machine-to-machine access: a client id and secret that a back end exchanges for tokens. */
export function ClientCredentialsPage() {
  const { org } = useOrg()
  const path = { orgId: org.id }
  const current = useLoad(async () => {
    try {
      return (await call(() => api.GET('/v1/orgs/{orgId}/client_credentials', { params: { path } }))).data ?? null
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    }
  }, [org.id])
  const [generated, setGenerated] = useState<{ clientId: string; clientSecret: string } | undefined>(undefined)
  const action = useAction()
  return (
    <Page
      title="Client credentials"
      lead="For a back end that calls the API without a person: it exchanges the client secret for an access token."
    >
      <Section title="Credentials">
        <Loaded state={current}>
          {(value) =>
            value ? (
              <dl class="facts">
                <dt>Client id</dt>
                <dd>
                  <code class="break">{value.clientId}</code>
                </dd>
                <dt>Secret</dt>
                <dd>{value.clientSecret}</dd>
                <dt>Generated</dt>
                <dd>{formatTime(value.createdAt)}</dd>
              </dl>
            ) : (
              <Empty>No client credentials yet. Generate them below (owners only).</Empty>
            )
          }
        </Loaded>
        {generated && (
          <>
            <Notice kind="info">Copy the secret now: it is stored hashed and never shown again.</Notice>
            <CopyField label="Client id" value={generated.clientId} />
            <CopyField label="Client secret" value={generated.clientSecret} />
          </>
        )}
        <ActionResult action={action} />
        <Button
          kind={current.data ? 'secondary' : 'primary'}
          busy={action.isBusy}
          onClick={() =>
            void action.run(async () => {
              const created = await call(() => api.POST('/v1/orgs/{orgId}/client_credentials', { params: { path } }))
              setGenerated(created.data)
              current.reload()
              return current.data
                ? 'New credentials generated; the old secret no longer works.'
                : 'Credentials generated'
            })
          }
        >
          {current.data ? 'Rotate the credentials' : 'Generate credentials'}
        </Button>
      </Section>
    </Page>
  )
}
