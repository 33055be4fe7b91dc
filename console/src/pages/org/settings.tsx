import { useState } from 'preact/hooks'
import { api, call } from '../../api/client'
import { navigate } from '../../router'
import { ActionResult, Button, CheckboxField, Page, Section, TextArea, TextField } from '../../ui/kit'
import { useAction } from '../../ui/hooks'
import { useOrg } from './org-layout'

/** The API takes logos as base64 data URIs of PNG, JPEG, GIF or WebP up to 512 KiB (docs/decisions.md). */
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']
const LOGO_MAX_BYTES = 512 * 1024

function readAsDataUri(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(new Error('The file could not be read'))
    reader.readAsDataURL(file)
  })
}

export function SettingsPage() {
  const { org, reloadOrg } = useOrg()
  const [name, setName] = useState(org.name)
  const [description, setDescription] = useState(org.description)
  const [website, setWebsite] = useState(org.website ?? '')
  const [isPublic, setPublic] = useState(org.isPublic)
  const [logo, setLogo] = useState<string | undefined>(undefined)
  const [logoProblem, setLogoProblem] = useState<string | undefined>(undefined)
  const save = useAction()
  const remove = useAction()
  const [confirmName, setConfirmName] = useState('')
  const profileUrl = `/v1/orgs/public-profiles/${encodeURIComponent(org.slug)}`

  return (
    <Page title="Settings" lead="The organization's profile, its logo and whether it is listed publicly.">
      <Section title="Profile">
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault()
            void save.run(async () => {
              await call(() =>
                api.PUT('/v1/orgs/{orgId}', {
                  params: { path: { orgId: org.id } },
                  body: {
                    name,
                    description,
                    isPublic,
                    ...(website ? { website } : {}),
                    ...(logo !== undefined ? { logo } : {}),
                  },
                }),
              )
              reloadOrg()
              return 'Organization updated'
            })
          }}
        >
          <TextField label="Name" value={name} onValue={setName} required />
          <TextArea label="Description" value={description} onValue={setDescription} required rows={3} />
          <TextField label="Website" type="url" value={website} onValue={setWebsite} />
          <div class="field">
            <label for="logo-file">Logo</label>
            <div class="row">
              {(logo ?? org.logoUrl) ? (
                <img src={logo ?? org.logoUrl} alt="Current logo" class="org-logo large" />
              ) : null}
              <input
                id="logo-file"
                type="file"
                accept={LOGO_TYPES.join(',')}
                aria-describedby="logo-hint"
                onChange={async (event) => {
                  const file = event.currentTarget.files?.[0]
                  setLogoProblem(undefined)
                  if (!file) return
                  if (!LOGO_TYPES.includes(file.type)) return setLogoProblem('Choose a PNG, JPEG, GIF or WebP image.')
                  if (file.size > LOGO_MAX_BYTES) return setLogoProblem('The logo can be at most 512 KiB.')
                  setLogo(await readAsDataUri(file))
                }}
              />
              {(logo ?? org.logoUrl) && <Button onClick={() => setLogo('')}>Remove the logo</Button>}
            </div>
            <p class="hint" id="logo-hint">
              PNG, JPEG, GIF or WebP, at most 512 KiB. Saved with the profile.
            </p>
            {logoProblem && (
              <p class="field-error" role="alert">
                {logoProblem}
              </p>
            )}
          </div>
          <CheckboxField
            label="List in public profiles"
            checked={isPublic}
            onChecked={setPublic}
            hint="Anyone can then read the name, description, logo and website."
          />
          {org.isPublic && (
            <p>
              Public profile: <a href={profileUrl}>{profileUrl}</a>
            </p>
          )}
          <ActionResult action={save} />
          <Button type="submit" kind="primary" busy={save.isBusy}>
            Save
          </Button>
        </form>
      </Section>
      <Section title="Delete the organization">
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault()
            void remove.run(async () => {
              await call(() => api.DELETE('/v1/orgs/{orgId}', { params: { path: { orgId: org.id } } }))
              navigate('/orgs')
            })
          }}
        >
          <p>
            Deleting removes its agent, schemas, credentials, connections and members for good. Only an owner can do it.
          </p>
          <TextField label={`Type "${org.name}" to confirm`} value={confirmName} onValue={setConfirmName} />
          <ActionResult action={remove} />
          <Button type="submit" kind="danger" busy={remove.isBusy} disabled={confirmName !== org.name}>
            Delete for good
          </Button>
        </form>
      </Section>
    </Page>
  )
}
