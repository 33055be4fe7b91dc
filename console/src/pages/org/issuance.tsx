import { useEffect, useState } from 'preact/hooks'
import { api, call, messageOf, type Schemas } from '../../api/client'
import {
  ActionResult,
  Button,
  CopyField,
  Empty,
  Link,
  Loaded,
  Notice,
  Page,
  Section,
  SelectField,
  ShortId,
  StateBadge,
  TextArea,
  TextField,
  formatTime,
} from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { QrCode } from '../../ui/qr-code'
import { useOrg } from './org-layout'
import { templateForCredDef, templateForSchema } from './credential-form'
import { indyAttributes, inputTypeOf, jsonLdCredential, type CredentialTemplate } from './credential-shape'

type Delivery = 'connection' | 'oob' | 'email'

export function IssuancePage() {
  const { org } = useOrg()
  const orgId = org.id
  const records = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/orgs/{orgId}/credentials', { params: { path: { orgId }, query: { pageSize: 50 } } }),
        )
      ).data,
    [orgId],
    { pollMs: 3_000 },
  )
  return (
    <Page
      title="Issuance"
      lead="Offer credentials to a connection, to anyone scanning a QR code, or by e-mail. States update as holders answer."
    >
      <IssueForm onIssued={records.reload} />
      <Section title="Issuance records">
        <Loaded state={records}>
          {(page) =>
            page && page.data.length > 0 ? (
              <IssuanceTable orgId={orgId} records={page.data} />
            ) : (
              <Empty>No credentials offered yet. Use the form above.</Empty>
            )
          }
        </Loaded>
      </Section>
    </Page>
  )
}

function IssuanceTable(props: { orgId: string; records: Schemas['IssuanceRecord'][] }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Record</th>
            <th scope="col">Type</th>
            <th scope="col">State</th>
            <th scope="col">To</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {props.records.map((record) => (
            <tr key={record.id}>
              <td>
                <Link to={`/orgs/${props.orgId}/issuance/${record.id}`}>
                  {record.credentialSummary?.types.filter((type) => type !== 'VerifiableCredential').join(', ') ||
                    'Credential'}
                </Link>{' '}
                <ShortId id={record.id} />
              </td>
              <td>{record.credentialType}</td>
              <td>
                <StateBadge state={record.state} />
                {record.errorMessage && <span class="field-error block">{record.errorMessage}</span>}
              </td>
              <td>
                {record.emailId ?? (record.connectionId ? <ShortId id={record.connectionId} /> : 'QR code / link')}
              </td>
              <td>{formatTime(record.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

interface TemplateChoice {
  value: string
  label: string
  load: () => Promise<CredentialTemplate>
}

function useTemplateChoices(orgId: string) {
  return useLoad(async () => {
    const [schemas, definitions] = await Promise.all([
      call(() => api.GET('/v1/orgs/{orgId}/schemas', { params: { path: { orgId }, query: { pageSize: 100 } } })),
      call(() =>
        api.GET('/v1/orgs/{orgId}/cred-defs', {
          params: { path: { orgId }, query: { pageSize: 100, revocable: false } },
        }),
      ),
    ])
    const choices: TemplateChoice[] = []
    const ownIndySchemas = new Map<string, string>()
    for (const schema of schemas.data?.data ?? []) {
      if (schema.type === 'INDY') ownIndySchemas.set(schema.schemaLedgerId, schema.id)
      if (schema.type === 'JSON')
        choices.push({
          value: `json:${schema.id}`,
          label: `JSON-LD: ${schema.name} ${schema.version}`,
          load: () => templateForSchema(orgId, schema.id),
        })
    }
    for (const definition of definitions.data?.data ?? []) {
      if (definition.status !== 'created') continue
      choices.push({
        value: `indy:${definition.id}`,
        label: `INDY: ${definition.tag} (${definition.schemaLedgerId})`,
        load: () => templateForCredDef(orgId, definition, ownIndySchemas.get(definition.schemaLedgerId)),
      })
    }
    return choices
  }, [orgId])
}

function IssueForm(props: { onIssued: () => void }) {
  const { org } = useOrg()
  const orgId = org.id
  const choices = useTemplateChoices(orgId)
  const [choice, setChoice] = useState('')
  const [template, setTemplate] = useState<CredentialTemplate | undefined>(undefined)
  const [templateError, setTemplateError] = useState<string | undefined>(undefined)
  const [values, setValues] = useState<Record<string, string>>({})
  const [delivery, setDelivery] = useState<Delivery>('connection')
  const [connectionId, setConnectionId] = useState('')
  const [emails, setEmails] = useState('')
  const [invitation, setInvitation] = useState<string | undefined>(undefined)
  const action = useAction()
  const connections = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/orgs/{orgId}/connections', { params: { path: { orgId }, query: { pageSize: 100 } } }),
        )
      ).data?.connections.filter((connection) => connection.state === 'completed') ?? [],
    [orgId],
    { pollMs: 5_000 },
  )

  useEffect(() => {
    const first = choices.data?.[0]
    if (!choice && first) setChoice(first.value)
  }, [choices.data])
  useEffect(() => {
    const selected = choices.data?.find((candidate) => candidate.value === choice)
    setTemplate(undefined)
    setTemplateError(undefined)
    setValues({})
    if (!selected) return
    // A late answer for a choice no longer selected must not replace the current one's form.
    let isCurrent = true
    selected.load().then(
      (loaded) => isCurrent && setTemplate(loaded),
      (error: unknown) => isCurrent && setTemplateError(messageOf(error)),
    )
    return () => {
      isCurrent = false
    }
  }, [choice, choices.data])
  useEffect(() => {
    if (!connectionId && connections.data?.[0]) setConnectionId(connections.data[0].id)
  }, [connections.data])

  const issue = () =>
    action.run(async () => {
      if (!template) return
      setInvitation(undefined)
      const path = { orgId }
      const query = { credentialType: template.kind }
      let format: { attributes: { name: string; value: string }[] } | ReturnType<typeof jsonLdCredential>
      if (template.kind === 'INDY') format = { attributes: indyAttributes(template, values) }
      else {
        const dids = (await call(() => api.GET('/v1/orgs/{orgId}/dids', { params: { path } }))).data ?? []
        const issuer = dids.find((did) => did.isPrimaryDid) ?? dids[0]
        if (!issuer) throw new Error('The organization has no DID yet: provision its agent first.')
        format = jsonLdCredential(template, issuer.did, values)
      }
      const definition = template.credentialDefinitionId
        ? { credentialDefinitionId: template.credentialDefinitionId }
        : {}
      const jsonLd =
        'credential' in format
          ? { credential: format.credential as unknown as Record<string, never>, options: format.options }
          : {}
      const indy = 'attributes' in format ? { attributes: format.attributes } : {}
      if (delivery === 'connection') {
        await call(() =>
          api.POST('/v1/orgs/{orgId}/credentials/offer', {
            params: { path, query },
            body: { ...definition, credentialData: [{ connectionId, ...jsonLd, ...indy }] },
          }),
        )
        props.onIssued()
        return 'Offer sent to the connection.'
      }
      if (delivery === 'oob') {
        const offer = await call(() =>
          api.POST('/v1/orgs/{orgId}/credentials/oob/offer', {
            params: { path, query },
            body: { ...definition, ...jsonLd, ...indy, isShortenUrl: true },
          }),
        )
        setInvitation(offer.data?.shortUrl ?? offer.data?.invitationUrl)
        props.onIssued()
        return 'Offer created: the holder scans the QR code or opens the link.'
      }
      const addresses = emails.split(/[\s,;]+/).filter(Boolean)
      await call(() =>
        api.POST('/v1/orgs/{orgId}/credentials/oob/email', {
          params: { path, query },
          body: { ...definition, credentialOffer: addresses.map((emailId) => ({ emailId, ...jsonLd, ...indy })) },
        }),
      )
      props.onIssued()
      return `Offer mailed to ${addresses.join(', ')}.`
    })

  return (
    <Section title="Issue a credential">
      <Loaded state={choices}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              Nothing to issue yet: <Link to={`/orgs/${orgId}/schemas/new`}>publish a JSON schema</Link>, or an INDY
              schema with a <Link to={`/orgs/${orgId}/cred-defs`}>credential definition</Link>.
            </Empty>
          ) : (
            <form
              class="form"
              onSubmit={(event) => {
                event.preventDefault()
                void issue()
              }}
            >
              <SelectField
                label="Credential"
                value={choice}
                onValue={setChoice}
                options={list.map(({ value, label }) => ({ value, label }))}
              />
              {templateError && <Notice kind="error">{templateError}</Notice>}
              {template && (
                <fieldset class="field">
                  <legend>Attributes</legend>
                  <div class="grid">
                    {template.attributes.map((attribute) =>
                      attribute.dataType === 'boolean' ? (
                        <SelectField
                          key={attribute.name}
                          label={attribute.label}
                          value={values[attribute.name] ?? 'true'}
                          onValue={(value) => setValues({ ...values, [attribute.name]: value })}
                          options={['true', 'false']}
                        />
                      ) : (
                        <TextField
                          key={attribute.name}
                          label={attribute.label}
                          type={inputTypeOf(attribute.dataType)}
                          step={attribute.dataType === 'number' ? 'any' : undefined}
                          value={values[attribute.name] ?? ''}
                          required={attribute.isRequired}
                          hint={attribute.dataType === 'array' ? 'Comma-separated values.' : undefined}
                          onValue={(value) => setValues({ ...values, [attribute.name]: value })}
                        />
                      ),
                    )}
                  </div>
                </fieldset>
              )}
              <SelectField<Delivery>
                label="Deliver"
                value={delivery}
                onValue={setDelivery}
                options={[
                  { value: 'connection', label: 'To a connection' },
                  { value: 'oob', label: 'With a QR code or link' },
                  { value: 'email', label: 'By e-mail' },
                ]}
              />
              {delivery === 'connection' &&
                ((connections.data?.length ?? 0) > 0 ? (
                  <SelectField
                    label="Connection"
                    value={connectionId}
                    onValue={setConnectionId}
                    options={(connections.data ?? []).map((connection) => ({
                      value: connection.id,
                      label: `${connection.theirLabel ?? 'Unnamed'} (${connection.id.slice(0, 8)})`,
                    }))}
                  />
                ) : (
                  <Notice>
                    No completed connection yet: <Link to={`/orgs/${orgId}/connections`}>invite a holder</Link>, or
                    deliver with a QR code.
                  </Notice>
                ))}
              {delivery === 'email' && (
                <TextArea
                  label="E-mail addresses"
                  value={emails}
                  onValue={setEmails}
                  required
                  rows={2}
                  hint="One offer per address; separate with commas or new lines."
                />
              )}
              <ActionResult action={action} />
              <Button
                type="submit"
                kind="primary"
                busy={action.isBusy}
                disabled={!template || (delivery === 'connection' && !connectionId)}
              >
                Offer the credential
              </Button>
              {invitation && (
                <div class="invitation">
                  <QrCode text={invitation} label="QR code of the credential offer" />
                  <CopyField label="Offer link" value={invitation} />
                </div>
              )}
            </form>
          )
        }
      </Loaded>
    </Section>
  )
}
