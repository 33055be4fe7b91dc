import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import {
  CONDITION_STATUSES,
  IMAGE_PULL_POLICIES,
  ORGAGENT_GROUP,
  ORGAGENT_KIND,
  ORGAGENT_PHASES,
  ORGAGENT_PLURAL,
  ORGAGENT_VERSION,
  type Condition,
  type OrgAgentEnvVar,
  type OrgAgentResources,
  type OrgAgentSpec,
  type OrgAgentStatus,
  type ResourceQuantities,
} from './orgagent.types'

/**
 * Each key list below is typed `Record<keyof T, true>` (or the required keys only), so `tsc` fails when the
 * TypeScript type gains or loses a field, and the assertions fail when the YAML does.
 */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]
type KeySet<K extends PropertyKey> = Record<K, true>

const specKeys: KeySet<keyof OrgAgentSpec> = {
  orgId: true,
  label: true,
  image: true,
  imagePullPolicy: true,
  secretName: true,
  eventUrl: true,
  publicEndpointBase: true,
  resources: true,
  env: true,
}
const specRequired: KeySet<RequiredKeys<OrgAgentSpec>> = { orgId: true, label: true, image: true, secretName: true }
const statusKeys: KeySet<keyof OrgAgentStatus> = {
  phase: true,
  adminPort: true,
  inboundPort: true,
  controllerEndpoint: true,
  podName: true,
  serviceName: true,
  observedGeneration: true,
  pollAttempts: true,
  conditions: true,
}
const conditionKeys: KeySet<keyof Condition> = {
  type: true,
  status: true,
  reason: true,
  message: true,
  lastTransitionTime: true,
  observedGeneration: true,
}
const conditionRequired: KeySet<RequiredKeys<Condition>> = {
  type: true,
  status: true,
  reason: true,
  message: true,
  lastTransitionTime: true,
}
const resourcesKeys: KeySet<keyof OrgAgentResources> = { requests: true, limits: true }
const quantityKeys: KeySet<keyof ResourceQuantities> = { cpu: true, memory: true }
const envKeys: KeySet<keyof OrgAgentEnvVar> = { name: true, value: true }
const envRequired: KeySet<RequiredKeys<OrgAgentEnvVar>> = { name: true }

interface SchemaNode {
  type?: string
  required?: string[]
  enum?: string[]
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
}

interface CrdVersion {
  name: string
  served: boolean
  storage: boolean
  subresources?: { status?: object }
  additionalPrinterColumns: { name: string; jsonPath: string }[]
  schema: { openAPIV3Schema: SchemaNode }
}

interface Crd {
  metadata: { name: string }
  spec: {
    group: string
    scope: string
    names: { kind: string; plural: string; singular: string; shortNames: string[] }
    versions: CrdVersion[]
  }
}

const crd = parse(readFileSync(path.join(__dirname, '..', 'crds', 'orgagent.yaml'), 'utf8')) as Crd
const version = crd.spec.versions[0]
const root = version.schema.openAPIV3Schema

function node(at: SchemaNode | undefined, ...keys: string[]): SchemaNode {
  let current = at
  for (const key of keys) current = key === '[]' ? current?.items : current?.properties?.[key]
  if (!current) throw new Error(`schema has no ${keys.join('.')}`)
  return current
}

const sorted = (keys: object) => Object.keys(keys).sort()
const propertyNames = (at: SchemaNode) => Object.keys(at.properties ?? {}).sort()

describe('crds/orgagent.yaml and common/orgagent.types.ts', () => {
  it('name the same group, version, kind and plural', () => {
    expect(crd.metadata.name).toBe(`${ORGAGENT_PLURAL}.${ORGAGENT_GROUP}`)
    expect(crd.spec.group).toBe(ORGAGENT_GROUP)
    expect(crd.spec.names).toMatchObject({
      kind: ORGAGENT_KIND,
      plural: ORGAGENT_PLURAL,
      singular: 'orgagent',
      shortNames: ['oa'],
    })
    expect(crd.spec.scope).toBe('Namespaced')
    expect(version).toMatchObject({ name: ORGAGENT_VERSION, served: true, storage: true, subresources: { status: {} } })
  })

  it.each([
    ['spec', ['spec'], specKeys],
    ['status', ['status'], statusKeys],
    ['spec.resources', ['spec', 'resources'], resourcesKeys],
    ['spec.resources.requests', ['spec', 'resources', 'requests'], quantityKeys],
    ['spec.resources.limits', ['spec', 'resources', 'limits'], quantityKeys],
    ['spec.env[]', ['spec', 'env', '[]'], envKeys],
    ['status.conditions[]', ['status', 'conditions', '[]'], conditionKeys],
  ])('have the same fields in %s', (_label, keys, expected) => {
    expect(propertyNames(node(root, ...keys))).toEqual(sorted(expected))
  })

  it.each([
    ['spec', ['spec'], specRequired],
    ['spec.env[]', ['spec', 'env', '[]'], envRequired],
    ['status.conditions[]', ['status', 'conditions', '[]'], conditionRequired],
  ])('require the same fields in %s', (_label, keys, expected) => {
    expect([...(node(root, ...keys).required ?? [])].sort()).toEqual(sorted(expected))
  })

  it.each([
    ['status.phase', ['status', 'phase'], ORGAGENT_PHASES],
    ['spec.imagePullPolicy', ['spec', 'imagePullPolicy'], IMAGE_PULL_POLICIES],
    ['status.conditions[].status', ['status', 'conditions', '[]', 'status'], CONDITION_STATUSES],
  ])('allow the same values in %s', (_label, keys, expected) => {
    expect(node(root, ...keys).enum).toEqual([...expected])
  })

  it('print the columns kubectl get orgagents shows', () => {
    expect(version.additionalPrinterColumns.map((column) => [column.name.toUpperCase(), column.jsonPath])).toEqual([
      ['ORG', '.spec.orgId'],
      ['PHASE', '.status.phase'],
      ['READY', '.status.conditions[?(@.type=="Ready")].status'],
      ['ADMIN', '.status.adminPort'],
      ['INBOUND', '.status.inboundPort'],
      ['ENDPOINT', '.status.controllerEndpoint'],
      ['AGE', '.metadata.creationTimestamp'],
    ])
  })
})
