import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import * as k8s from '@kubernetes/client-node'
import { parse } from 'yaml'
import type { TestKubeApiServer } from './kube-test-server'

/**
 * An in-memory Kubernetes API server with just what idplane's operator, API and tests use: namespaced CRUD
 * for pods, services, secrets, configmaps, leases and the CRDs in crds/ (with their /status subresource and
 * schema validation and pruning), list with resourceVersion, watch streams, optimistic concurrency,
 * merge and JSON patches, finalizers with deletionTimestamp, and background garbage collection through
 * ownerReferences. Behaviour follows kube-apiserver where the operator depends on it; everything else
 * (authn, admission, field selectors, paging) is absent.
 */
export interface FakeKubeApiServer extends TestKubeApiServer {
  /** Answers every request with 503 and ends every watch for `ms` milliseconds (tests informer restarts). */
  failRequestsFor(ms: number): void
  /** Number of open watch streams. */
  watchCount(): number
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

interface SchemaNode {
  type?: string
  required?: string[]
  enum?: string[]
  pattern?: string
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
  'x-kubernetes-preserve-unknown-fields'?: boolean
}

interface ResourceType {
  group: string
  version: string
  plural: string
  kind: string
  namespaced: boolean
  statusSubresource: boolean
  custom: boolean
  schema?: SchemaNode
}

interface WatchEvent {
  resourceVersion: number
  type: 'ADDED' | 'MODIFIED' | 'DELETED'
  typeKey: string
  object: JsonObject
}

interface Watcher {
  typeKey: string
  namespace?: string
  selector: LabelRequirement[]
  res: ServerResponse
}

interface LabelRequirement {
  key: string
  op: '=' | '!=' | 'exists' | '!exists'
  value?: string
}

class ApiError extends Error {
  public constructor(
    public readonly code: number,
    public readonly reason: string,
    message: string,
  ) {
    super(message)
  }
}

const BUILT_IN: ResourceType[] = [
  { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true, statusSubresource: true, custom: false },
  {
    group: '',
    version: 'v1',
    plural: 'services',
    kind: 'Service',
    namespaced: true,
    statusSubresource: true,
    custom: false,
  },
  {
    group: '',
    version: 'v1',
    plural: 'secrets',
    kind: 'Secret',
    namespaced: true,
    statusSubresource: false,
    custom: false,
  },
  {
    group: '',
    version: 'v1',
    plural: 'configmaps',
    kind: 'ConfigMap',
    namespaced: true,
    statusSubresource: false,
    custom: false,
  },
  {
    group: '',
    version: 'v1',
    plural: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    statusSubresource: true,
    custom: false,
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    plural: 'leases',
    kind: 'Lease',
    namespaced: true,
    statusSubresource: false,
    custom: false,
  },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    statusSubresource: true,
    custom: false,
  },
]

const CRD_FILES = [path.join(__dirname, '..', '..', 'crds', 'orgagent.yaml')]

interface CrdDocument {
  spec: {
    group: string
    scope: string
    names: { kind: string; plural: string }
    versions: { name: string; subresources?: { status?: object }; schema?: { openAPIV3Schema?: SchemaNode } }[]
  }
}

function crdTypes(crd: CrdDocument): ResourceType[] {
  return crd.spec.versions.map((version) => ({
    group: crd.spec.group,
    version: version.name,
    plural: crd.spec.names.plural,
    kind: crd.spec.names.kind,
    namespaced: crd.spec.scope === 'Namespaced',
    statusSubresource: version.subresources?.status !== undefined,
    custom: true,
    schema: version.schema?.openAPIV3Schema,
  }))
}

const typeKeyOf = (type: ResourceType) => `${type.group}/${type.version}/${type.plural}`
const objectKey = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`
const clone = <T>(value: T): T => structuredClone(value)
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const nowSeconds = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z')

function meta(object: JsonObject): JsonObject {
  if (!isObject(object.metadata)) object.metadata = {}
  return object.metadata as JsonObject
}

function stringField(object: JsonObject, key: string): string | undefined {
  const value = object[key]
  return typeof value === 'string' ? value : undefined
}

/** RFC 7386 JSON merge patch. */
export function applyMergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return clone(patch)
  const out: JsonObject = isObject(target) ? { ...target } : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key]
    else out[key] = applyMergePatch(out[key], value)
  }
  return out
}

function pointer(pathText: string): string[] {
  if (pathText === '') return []
  return pathText
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
}

/** RFC 6902 JSON patch (add, remove, replace, test). */
export function applyJsonPatch(document: Json, operations: Json): Json {
  if (!Array.isArray(operations)) throw new ApiError(400, 'BadRequest', 'json patch must be an array')
  let root = clone(document)
  for (const operation of operations) {
    if (!isObject(operation) || typeof operation.op !== 'string' || typeof operation.path !== 'string') {
      throw new ApiError(400, 'BadRequest', 'invalid json patch operation')
    }
    const parts = pointer(operation.path)
    const last = parts.pop()
    if (last === undefined) {
      if (operation.op === 'test') continue
      root = clone(operation.value ?? null)
      continue
    }
    let parent: Json = root
    for (const part of parts) {
      const next: Json | undefined = Array.isArray(parent)
        ? parent[Number(part)]
        : isObject(parent)
          ? parent[part]
          : undefined
      if (next === undefined) throw new ApiError(422, 'Invalid', `json patch path ${operation.path} does not exist`)
      parent = next
    }
    const current = Array.isArray(parent) ? parent[Number(last)] : isObject(parent) ? parent[last] : undefined
    switch (operation.op) {
      case 'test':
        if (JSON.stringify(current) !== JSON.stringify(operation.value)) {
          throw new ApiError(422, 'Invalid', `json patch test failed at ${operation.path}`)
        }
        break
      case 'remove':
        if (current === undefined)
          throw new ApiError(422, 'Invalid', `json patch path ${operation.path} does not exist`)
        if (Array.isArray(parent)) parent.splice(Number(last), 1)
        else if (isObject(parent)) delete parent[last]
        break
      case 'add':
      case 'replace': {
        const value = clone(operation.value ?? null)
        if (operation.op === 'replace' && current === undefined) {
          throw new ApiError(422, 'Invalid', `json patch path ${operation.path} does not exist`)
        }
        if (Array.isArray(parent)) {
          const index = last === '-' ? parent.length : Number(last)
          if (operation.op === 'add') parent.splice(index, 0, value)
          else parent[index] = value
        } else if (isObject(parent)) parent[last] = value
        break
      }
      default:
        throw new ApiError(422, 'Invalid', `json patch op ${operation.op} is not supported`)
    }
  }
  return root
}

/** Validates `value` against a structural schema and prunes unknown fields, as kube-apiserver does for CRs. */
function validateSchema(node: SchemaNode, value: Json, at: string, errors: string[]): Json {
  if (node.type === 'object') {
    if (!isObject(value)) {
      errors.push(`${at}: Invalid value: must be of type object`)
      return value
    }
    for (const key of node.required ?? []) if (value[key] === undefined) errors.push(`${at}.${key}: Required value`)
    if (!node.properties || node['x-kubernetes-preserve-unknown-fields']) return value
    const out: JsonObject = {}
    for (const [key, inner] of Object.entries(value)) {
      const child = node.properties[key]
      if (child) out[key] = validateSchema(child, inner, `${at}.${key}`, errors)
    }
    return out
  }
  if (node.type === 'array') {
    if (!Array.isArray(value)) {
      errors.push(`${at}: Invalid value: must be of type array`)
      return value
    }
    const items = node.items
    return items ? value.map((item, index) => validateSchema(items, item, `${at}[${index}]`, errors)) : value
  }
  const typeOk =
    node.type === undefined ||
    (node.type === 'string' && typeof value === 'string') ||
    (node.type === 'integer' && Number.isInteger(value)) ||
    (node.type === 'number' && typeof value === 'number') ||
    (node.type === 'boolean' && typeof value === 'boolean')
  if (!typeOk) errors.push(`${at}: Invalid value: must be of type ${node.type}`)
  else if (node.enum && !node.enum.includes(String(value)))
    errors.push(`${at}: Unsupported value: ${JSON.stringify(value)}`)
  else if (node.pattern && typeof value === 'string' && !new RegExp(node.pattern).test(value)) {
    errors.push(`${at}: Invalid value: must match ${node.pattern}`)
  }
  return value
}

function parseSelector(text: string | null): LabelRequirement[] {
  if (!text) return []
  return text
    .split(',')
    .filter((part) => part.length > 0)
    .map((part): LabelRequirement => {
      const notEqual = part.indexOf('!=')
      if (notEqual >= 0) return { key: part.slice(0, notEqual), op: '!=', value: part.slice(notEqual + 2) }
      const equal = part.indexOf('=')
      if (equal >= 0) return { key: part.slice(0, equal), op: '=', value: part.slice(equal + 1).replace(/^=/, '') }
      return part.startsWith('!') ? { key: part.slice(1), op: '!exists' } : { key: part, op: 'exists' }
    })
}

function matchesSelector(object: JsonObject, selector: LabelRequirement[]): boolean {
  const labels = isObject(meta(object).labels) ? (meta(object).labels as JsonObject) : {}
  return selector.every((requirement) => {
    const value = labels[requirement.key]
    switch (requirement.op) {
      case '=':
        return value === requirement.value
      case '!=':
        return value !== requirement.value
      case 'exists':
        return value !== undefined
      case '!exists':
        return value === undefined
    }
  })
}

interface ParsedPath {
  type: ResourceType
  namespace?: string
  name?: string
  subresource?: string
}

class FakeApiServer {
  private readonly types = new Map<string, ResourceType>()
  private readonly objects = new Map<string, Map<string, JsonObject>>()
  private readonly history: WatchEvent[] = []
  private readonly watchers = new Set<Watcher>()
  private revision = 1
  private failingUntil = 0

  public constructor(types: ResourceType[]) {
    for (const type of types) this.register(type)
  }

  private register(type: ResourceType): void {
    this.types.set(typeKeyOf(type), type)
    if (!this.objects.has(typeKeyOf(type))) this.objects.set(typeKeyOf(type), new Map())
  }

  public failFor(ms: number): void {
    this.failingUntil = Date.now() + ms
    this.closeWatches()
  }

  public watchCount(): number {
    return this.watchers.size
  }

  public closeWatches(): void {
    for (const watcher of this.watchers) watcher.res.end()
    this.watchers.clear()
  }

  public async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (Date.now() < this.failingUntil)
        throw new ApiError(503, 'ServiceUnavailable', 'the fake API server is failing on purpose')
      const url = new URL(req.url ?? '/', 'http://fake')
      const target = this.parsePath(url.pathname)
      const body = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method ?? '') ? await readBody(req) : undefined
      const method = req.method ?? 'GET'
      if (method === 'GET' && !target.name) {
        if (url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1')
          return this.watch(target, url, res)
        return send(res, 200, this.list(target, url))
      }
      if (method === 'GET' && target.name) return send(res, 200, this.get(target))
      if (method === 'POST' && !target.name) return send(res, 201, this.create(target, parseJson(body)))
      if (method === 'PUT' && target.name) return send(res, 200, this.replace(target, parseJson(body)))
      if (method === 'PATCH' && target.name) {
        return send(res, 200, this.patch(target, req.headers['content-type'] ?? '', parseJson(body)))
      }
      if (method === 'DELETE' && target.name) return send(res, 200, this.delete(target, body ? parseJson(body) : null))
      throw new ApiError(405, 'MethodNotAllowed', `${method} is not supported on ${url.pathname}`)
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError(500, 'InternalError', String(error))
      send(res, apiError.code, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: apiError.message,
        reason: apiError.reason,
        code: apiError.code,
      })
    }
  }

  private parsePath(pathname: string): ParsedPath {
    const segments = pathname.split('/').filter((segment) => segment.length > 0)
    let group: string
    let rest: string[]
    if (segments[0] === 'api' && segments[1] === 'v1') {
      group = '/v1'
      rest = segments.slice(2)
    } else if (segments[0] === 'apis' && segments.length >= 3) {
      group = `${segments[1]}/${segments[2]}`
      rest = segments.slice(3)
    } else throw new ApiError(404, 'NotFound', `the server could not find the requested resource ${pathname}`)
    const lookup = (plural: string | undefined) => (plural ? this.types.get(`${group}/${plural}`) : undefined)
    const namespacedType = rest[0] === 'namespaces' ? lookup(rest[2]) : undefined
    if (namespacedType?.namespaced && rest[1]) {
      return { type: namespacedType, namespace: rest[1], name: rest[3], subresource: rest[4] }
    }
    const type = lookup(rest[0])
    if (!type) throw new ApiError(404, 'NotFound', `the server could not find the requested resource ${pathname}`)
    return { type, name: rest[1], subresource: rest[2] }
  }

  private store(type: ResourceType): Map<string, JsonObject> {
    const store = this.objects.get(typeKeyOf(type))
    if (!store) throw new ApiError(404, 'NotFound', `unknown resource ${type.plural}`)
    return store
  }

  private notFound(target: ParsedPath): ApiError {
    const group = target.type.group ? `.${target.type.group}` : ''
    return new ApiError(404, 'NotFound', `${target.type.plural}${group} "${target.name ?? ''}" not found`)
  }

  private current(target: ParsedPath): JsonObject {
    const found = target.name ? this.store(target.type).get(objectKey(target.namespace, target.name)) : undefined
    if (!found) throw this.notFound(target)
    return found
  }

  private get(target: ParsedPath): JsonObject {
    return clone(this.current(target))
  }

  private list(target: ParsedPath, url: URL): JsonObject {
    const selector = parseSelector(url.searchParams.get('labelSelector'))
    const items = [...this.store(target.type).values()]
      .filter((object) => !target.namespace || meta(object).namespace === target.namespace)
      .filter((object) => matchesSelector(object, selector))
      .map(clone)
    return {
      apiVersion: target.type.group ? `${target.type.group}/${target.type.version}` : target.type.version,
      kind: `${target.type.kind}List`,
      metadata: { resourceVersion: String(this.revision) },
      items,
    }
  }

  private watch(target: ParsedPath, url: URL, res: ServerResponse): void {
    const watcher: Watcher = {
      typeKey: typeKeyOf(target.type),
      namespace: target.namespace,
      selector: parseSelector(url.searchParams.get('labelSelector')),
      res,
    }
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' })
    res.flushHeaders()
    const since = Number(url.searchParams.get('resourceVersion') ?? '0')
    if (!since) {
      for (const object of this.store(target.type).values()) this.deliver(watcher, 'ADDED', object)
    } else {
      for (const event of this.history) {
        if (event.resourceVersion > since && event.typeKey === watcher.typeKey)
          this.deliver(watcher, event.type, event.object)
      }
    }
    this.watchers.add(watcher)
    const timeout = Number(url.searchParams.get('timeoutSeconds') ?? '0')
    const timer = timeout > 0 ? setTimeout(() => res.end(), timeout * 1000) : undefined
    res.on('close', () => {
      if (timer) clearTimeout(timer)
      this.watchers.delete(watcher)
    })
  }

  private deliver(watcher: Watcher, type: WatchEvent['type'], object: JsonObject): void {
    if (watcher.namespace && meta(object).namespace !== watcher.namespace) return
    if (!matchesSelector(object, watcher.selector)) return
    watcher.res.write(JSON.stringify({ type, object }) + '\n')
  }

  private emit(type: ResourceType, eventType: WatchEvent['type'], object: JsonObject): void {
    const event: WatchEvent = {
      resourceVersion: Number(meta(object).resourceVersion),
      type: eventType,
      typeKey: typeKeyOf(type),
      object: clone(object),
    }
    this.history.push(event)
    for (const watcher of this.watchers)
      if (watcher.typeKey === event.typeKey) this.deliver(watcher, eventType, event.object)
  }

  private nextRevision(): string {
    this.revision += 1
    return String(this.revision)
  }

  private validate(type: ResourceType, object: JsonObject): JsonObject {
    if (!type.schema?.properties) return object
    const errors: string[] = []
    const out: JsonObject = { apiVersion: object.apiVersion, kind: object.kind, metadata: object.metadata }
    for (const [key, node] of Object.entries(type.schema.properties)) {
      if (['apiVersion', 'kind', 'metadata'].includes(key)) continue
      const value = object[key]
      if (value !== undefined) out[key] = validateSchema(node, value, key, errors)
    }
    for (const key of type.schema.required ?? []) if (object[key] === undefined) errors.push(`${key}: Required value`)
    if (errors.length > 0) {
      const name = stringField(meta(object), 'name') ?? ''
      throw new ApiError(422, 'Invalid', `${type.kind}.${type.group} "${name}" is invalid: ${errors.join(', ')}`)
    }
    return out
  }

  private create(target: ParsedPath, body: Json): JsonObject {
    if (!isObject(body)) throw new ApiError(400, 'BadRequest', 'the body must be an object')
    const object = clone(body)
    const metadata = meta(object)
    const bodyNamespace = stringField(metadata, 'namespace')
    if (target.namespace && bodyNamespace && bodyNamespace !== target.namespace) {
      throw new ApiError(
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      )
    }
    const generateName = stringField(metadata, 'generateName')
    const name = stringField(metadata, 'name') ?? (generateName ? generateName + randomUUID().slice(0, 5) : undefined)
    if (!name) throw new ApiError(422, 'Invalid', 'metadata.name: Required value: name or generateName is required')
    const store = this.store(target.type)
    const key = objectKey(target.namespace, name)
    if (store.has(key)) {
      const group = target.type.group ? `.${target.type.group}` : ''
      throw new ApiError(409, 'AlreadyExists', `${target.type.plural}${group} "${name}" already exists`)
    }
    Object.assign(metadata, {
      name,
      uid: randomUUID(),
      creationTimestamp: nowSeconds(),
      generation: 1,
      resourceVersion: this.nextRevision(),
    })
    if (target.namespace) metadata.namespace = target.namespace
    delete metadata.deletionTimestamp
    object.apiVersion = target.type.group ? `${target.type.group}/${target.type.version}` : target.type.version
    object.kind = target.type.kind
    if (target.type.statusSubresource) delete object.status
    if (target.type.kind === 'Pod') object.status = { phase: 'Pending' }
    if (target.type.kind === 'CustomResourceDefinition') {
      for (const type of crdTypes(object as unknown as CrdDocument)) this.register(type)
      object.status = {
        conditions: [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: '' }],
      }
    }
    const stored = this.validate(target.type, object)
    store.set(key, stored)
    this.emit(target.type, 'ADDED', stored)
    return clone(stored)
  }

  private replace(target: ParsedPath, body: Json): JsonObject {
    if (!isObject(body)) throw new ApiError(400, 'BadRequest', 'the body must be an object')
    return this.update(target, clone(body))
  }

  private patch(target: ParsedPath, contentType: string, body: Json): JsonObject {
    const old = this.current(target)
    const type = contentType.split(';')[0].trim()
    let patched: Json
    if (type === 'application/merge-patch+json') patched = applyMergePatch(old, body)
    else if (type === 'application/json-patch+json') patched = applyJsonPatch(old, body)
    else if (type === 'application/strategic-merge-patch+json' && !target.type.custom)
      patched = applyMergePatch(old, body)
    else
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
      )
    if (!isObject(patched)) throw new ApiError(422, 'Invalid', 'the patched object is not an object')
    return this.update(target, patched)
  }

  /** Shared by PUT and PATCH: optimistic concurrency, subresource split, generation, finalizer completion. */
  private update(target: ParsedPath, incoming: JsonObject): JsonObject {
    const old = this.current(target)
    const oldMeta = meta(old)
    const newMeta = meta(incoming)
    const precondition = stringField(newMeta, 'resourceVersion')
    if (precondition !== undefined && precondition !== oldMeta.resourceVersion) {
      const group = target.type.group ? `.${target.type.group}` : ''
      throw new ApiError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${target.type.plural}${group} "${target.name ?? ''}": the object has been modified; please apply your changes to the latest version and try again`,
      )
    }
    let next: JsonObject
    if (target.subresource === 'status') {
      next = { ...clone(old), status: incoming.status ?? null }
      if (next.status === null) delete next.status
    } else if (target.subresource) {
      throw new ApiError(404, 'NotFound', `subresource ${target.subresource} is not supported`)
    } else {
      next = clone(incoming)
      if (target.type.statusSubresource) {
        if (old.status === undefined) delete next.status
        else next.status = clone(old.status)
      }
      const nextMeta = meta(next)
      for (const key of ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'generation']) {
        if (oldMeta[key] === undefined) delete nextMeta[key]
        else nextMeta[key] = oldMeta[key]
      }
      const specChanged = Object.keys({ ...old, ...next })
        .filter((key) => !['metadata', 'status', 'apiVersion', 'kind'].includes(key))
        .some((key) => JSON.stringify(old[key]) !== JSON.stringify(next[key]))
      if (specChanged) nextMeta.generation = Number(oldMeta.generation ?? 1) + 1
    }
    next.apiVersion = old.apiVersion
    next.kind = old.kind
    const validated = this.validate(target.type, next)
    if (JSON.stringify(validated) === JSON.stringify(old)) return clone(old)
    meta(validated).resourceVersion = this.nextRevision()
    const store = this.store(target.type)
    const key = objectKey(target.namespace, stringField(oldMeta, 'name') ?? '')
    const finalizers = meta(validated).finalizers
    if (meta(validated).deletionTimestamp && (!Array.isArray(finalizers) || finalizers.length === 0)) {
      store.delete(key)
      this.emit(target.type, 'DELETED', validated)
      this.collectGarbage(stringField(oldMeta, 'uid'))
      return clone(validated)
    }
    store.set(key, validated)
    this.emit(target.type, 'MODIFIED', validated)
    return clone(validated)
  }

  private delete(target: ParsedPath, options: Json): JsonObject {
    const old = this.current(target)
    const oldMeta = meta(old)
    const preconditions = isObject(options) && isObject(options.preconditions) ? options.preconditions : {}
    if (
      (preconditions.uid !== undefined && preconditions.uid !== oldMeta.uid) ||
      (preconditions.resourceVersion !== undefined && preconditions.resourceVersion !== oldMeta.resourceVersion)
    ) {
      throw new ApiError(409, 'Conflict', `Precondition failed for ${target.type.plural} "${target.name ?? ''}"`)
    }
    const store = this.store(target.type)
    const key = objectKey(target.namespace, stringField(oldMeta, 'name') ?? '')
    const finalizers = oldMeta.finalizers
    if (Array.isArray(finalizers) && finalizers.length > 0) {
      if (oldMeta.deletionTimestamp) return clone(old)
      const next = clone(old)
      Object.assign(meta(next), {
        deletionTimestamp: nowSeconds(),
        deletionGracePeriodSeconds: 0,
        resourceVersion: this.nextRevision(),
      })
      store.set(key, next)
      this.emit(target.type, 'MODIFIED', next)
      return clone(next)
    }
    store.delete(key)
    const gone = clone(old)
    meta(gone).resourceVersion = this.nextRevision()
    this.emit(target.type, 'DELETED', gone)
    this.collectGarbage(stringField(oldMeta, 'uid'))
    return gone
  }

  /** Background cascading deletion: dependents whose every owner is gone are deleted, a moment later. */
  private collectGarbage(ownerUid: string | undefined): void {
    if (!ownerUid) return
    setImmediate(() => {
      const liveUids = new Set<string>()
      for (const store of this.objects.values()) {
        for (const object of store.values()) {
          const uid = stringField(meta(object), 'uid')
          if (uid) liveUids.add(uid)
        }
      }
      for (const type of this.types.values()) {
        for (const object of [...this.store(type).values()]) {
          const owners = meta(object).ownerReferences
          if (!Array.isArray(owners) || owners.length === 0) continue
          const ownerUids = owners.map((owner) => (isObject(owner) ? owner.uid : undefined))
          if (!ownerUids.includes(ownerUid) || ownerUids.some((uid) => typeof uid === 'string' && liveUids.has(uid)))
            continue
          const name = stringField(meta(object), 'name')
          try {
            this.delete({ type, namespace: stringField(meta(object), 'namespace'), name }, null)
          } catch {
            // already gone: nothing to collect
          }
        }
      }
    })
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function parseJson(text: string | undefined): Json {
  try {
    return JSON.parse(text ?? '') as Json
  } catch {
    throw new ApiError(400, 'BadRequest', 'the request body is not valid JSON')
  }
}

function send(res: ServerResponse, code: number, body: JsonObject): void {
  if (res.headersSent) return
  const text = JSON.stringify(body)
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** A KubeConfig pointing at `server` without credentials. */
export function kubeConfigFor(server: string): k8s.KubeConfig {
  const config = new k8s.KubeConfig()
  config.loadFromOptions({
    clusters: [{ name: 'test', server, skipTLSVerify: true }],
    users: [{ name: 'test' }],
    contexts: [{ name: 'test', cluster: 'test', user: 'test', namespace: 'default' }],
    currentContext: 'test',
  })
  return config
}

/** Starts the fake on a free 127.0.0.1 port with the CRDs from crds/ installed. */
export async function startFakeKubeApiServer(): Promise<FakeKubeApiServer> {
  const crds = CRD_FILES.map((file) => parse(readFileSync(file, 'utf8')) as CrdDocument)
  const api = new FakeApiServer([...BUILT_IN, ...crds.flatMap(crdTypes)])
  const http: Server = createServer((req, res) => void api.handle(req, res))
  http.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const server = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  return {
    server,
    kubeConfig: () => kubeConfigFor(server),
    failRequestsFor: (ms) => api.failFor(ms),
    watchCount: () => api.watchCount(),
    stop: async () => {
      api.closeWatches()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}
