import { useState } from 'preact/hooks'
import { api, call, type Schemas } from '../../api/client'
import {
  ActionResult,
  Button,
  Empty,
  Loaded,
  Notice,
  Page,
  ProgressBar,
  Section,
  SelectField,
  StateBadge,
} from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

type Template = Schemas['BulkTemplate']
type UploadSummary = Schemas['BulkUploadSummary']

/** Bulk issuance: download the CSV template, upload it filled in (row errors shown), execute and follow progress. */
export function BulkPage() {
  const { org } = useOrg()
  const orgId = org.id
  const templates = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/orgs/{orgId}/credentials/bulk/template', {
            params: { path: { orgId }, query: { pageSize: 100 } },
          }),
        )
      ).data?.data ?? [],
    [orgId],
  )
  const [templateId, setTemplateId] = useState('')
  const [summary, setSummary] = useState<UploadSummary | undefined>(undefined)
  const [requestId, setRequestId] = useState<string | undefined>(undefined)
  const template = templates.data?.find((candidate) => candidate.templateId === templateId) ?? templates.data?.[0]
  return (
    <Page
      title="Bulk issuance"
      lead="Offer one credential per row of a CSV file; each recipient gets the offer by e-mail."
    >
      <Loaded state={templates}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              No templates: bulk issuance uses a JSON schema or an INDY credential definition of this organization.
              Create one first.
            </Empty>
          ) : (
            <Section title="1. Choose the credential and get its template">
              <SelectField
                label="Credential"
                value={template?.templateId ?? ''}
                onValue={(value) => {
                  setTemplateId(value)
                  setSummary(undefined)
                  setRequestId(undefined)
                }}
                options={list.map((candidate) => ({
                  value: candidate.templateId,
                  label: `${candidate.schemaType === 'W3C' ? 'JSON-LD' : 'INDY'}: ${candidate.name} ${candidate.version}`,
                }))}
              />
              {template && <DownloadTemplate template={template} />}
            </Section>
          )
        }
      </Loaded>
      {template && (
        <Upload
          template={template}
          onUploaded={(uploaded) => {
            setSummary(uploaded)
            setRequestId(undefined)
          }}
        />
      )}
      {summary && <UploadResult summary={summary} onExecuted={setRequestId} />}
      {requestId && <Execution requestId={requestId} />}
    </Page>
  )
}

function DownloadTemplate(props: { template: Template }) {
  const { org } = useOrg()
  const action = useAction()
  return (
    <div class="row">
      <p>
        Columns: <code>email</code>,{' '}
        {props.template.columns
          .filter((column) => column.name !== 'email')
          .map((column) => column.name)
          .join(', ')}
        .
      </p>
      <Button
        busy={action.isBusy}
        onClick={() =>
          void action.run(async () => {
            // The template answers text/csv, not the JSON envelope.
            const answer = await api.POST('/v1/orgs/{orgId}/credentials/bulk/template', {
              params: { path: { orgId: org.id } },
              body: { templateId: props.template.templateId, schemaType: props.template.schemaType },
              parseAs: 'blob',
            })
            if (!answer.response.ok) throw new Error(`The template could not be downloaded (${answer.response.status})`)
            const link = document.createElement('a')
            link.href = URL.createObjectURL(answer.data as unknown as Blob)
            link.download = `${props.template.name}-${props.template.version}.csv`
            link.click()
            setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
          })
        }
      >
        Download the CSV template
      </Button>
      <ActionResult action={action} />
    </div>
  )
}

function Upload(props: { template: Template; onUploaded: (summary: UploadSummary) => void }) {
  const { org } = useOrg()
  const [file, setFile] = useState<File | undefined>(undefined)
  const action = useAction()
  return (
    <Section title="2. Upload the filled-in file">
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            if (!file) return
            const form = new FormData()
            form.append('file', file, file.name)
            const uploaded = await call(() =>
              api.POST('/v1/orgs/{orgId}/bulk/upload', {
                params: {
                  path: { orgId: org.id },
                  query: { schemaType: props.template.schemaType, templateId: props.template.templateId },
                },
                // multipart/form-data: the browser sets the boundary.
                body: form as unknown as { file: string },
              }),
            )
            if (uploaded.data) props.onUploaded(uploaded.data)
          })
        }}
      >
        <div class="field">
          <label for="bulk-file">CSV file</label>
          <input
            id="bulk-file"
            type="file"
            accept=".csv,text/csv"
            required
            onChange={(event) => setFile(event.currentTarget.files?.[0])}
          />
        </div>
        <ActionResult action={action} />
        <Button type="submit" kind="primary" busy={action.isBusy} disabled={!file}>
          Upload and check
        </Button>
      </form>
    </Section>
  )
}

function UploadResult(props: { summary: UploadSummary; onExecuted: (requestId: string) => void }) {
  const { org } = useOrg()
  const { summary } = props
  const action = useAction()
  return (
    <Section title="3. Check the rows and execute">
      <p>
        {summary.fileName}: {summary.rows} rows, {summary.valid} valid, {summary.invalid.count} with problems.
      </p>
      {summary.invalid.count > 0 && (
        <>
          <Notice kind="error">
            {summary.invalid.count} row{summary.invalid.count === 1 ? ' has' : 's have'} problems and will be skipped.
            Fix the file and upload it again, or execute the valid rows.
          </Notice>
          <div class="table-wrap">
            <table>
              <caption>Rows with problems</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Column</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {summary.invalid.rows.map((problem) => (
                  <tr key={`${problem.row}-${problem.column}`}>
                    <td>{problem.row}</td>
                    <td>{problem.column}</td>
                    <td>{problem.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <ActionResult action={action} />
      <Button
        kind="primary"
        busy={action.isBusy}
        disabled={summary.valid === 0}
        onClick={() =>
          void action.run(async () => {
            await call(() =>
              api.POST('/v1/orgs/{orgId}/{requestId}/bulk', {
                params: { path: { orgId: org.id, requestId: summary.requestId } },
                body: {},
              }),
            )
            props.onExecuted(summary.requestId)
          })
        }
      >
        Execute {summary.valid} valid row{summary.valid === 1 ? '' : 's'}
      </Button>
    </Section>
  )
}

function Execution(props: { requestId: string }) {
  const { org } = useOrg()
  const progress = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/orgs/{orgId}/bulk/{requestId}', {
            params: { path: { orgId: org.id, requestId: props.requestId }, query: { pageSize: 100 } },
          }),
        )
      ).data,
    [org.id, props.requestId],
    { pollMs: 1_500, keepPolling: (value) => value?.status !== 'completed' },
  )
  return (
    <Section title="4. Progress">
      <Loaded state={progress}>
        {(value) =>
          value ? (
            <>
              <p>
                Status: <StateBadge state={value.status} />
              </p>
              <ProgressBar
                label="Rows done"
                value={value.counts.sent + value.counts.failed + value.counts.invalid}
                max={value.totalRows}
              />
              <p>
                Sent {value.counts.sent}, queued {value.counts.queued}, failed {value.counts.failed}, skipped as invalid{' '}
                {value.counts.invalid}.
              </p>
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Row</th>
                      <th scope="col">E-mail</th>
                      <th scope="col">Status</th>
                      <th scope="col">Error</th>
                    </tr>
                  </thead>
                  <tbody>
                    {value.rows.data.map((row) => (
                      <tr key={row.row}>
                        <td>{row.row}</td>
                        <td>{row.email}</td>
                        <td>
                          <StateBadge state={row.status} />
                        </td>
                        <td>{row.error ?? ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          ) : null
        }
      </Loaded>
    </Section>
  )
}
