import { getMetadataStorage } from 'class-validator'

type MetadataStorage = ReturnType<typeof getMetadataStorage>
type ValidationMetadata = Parameters<MetadataStorage['addValidationMetadata']>[0]
type Target = Parameters<MetadataStorage['getTargetValidationMetadatas']>[0]
type GroupedMetadatas = Record<string, ValidationMetadata[]>

const INSTALLED = Symbol.for('idplane.validationMetadataMemo')

/**
 * class-validator looks up a class's validation rules anew for every object it validates: it walks every class it
 * knows (a few hundred in an agent) testing `instanceof` for inherited rules, filters and de-duplicates, then groups
 * them by property. Credo validates every message it receives and sends and every nested object in it, so the same
 * lookup runs thousands of times per exchange with the same answer. The answer depends only on the class, the
 * options and the rules registered, so it is kept per class and options until a rule is added (a class loaded
 * later), and its grouping is kept with it. Lookups with validation groups (Credo uses none) are not kept.
 *
 * The rule lists handed out are shared between calls; class-validator only reads them. Measured in
 * docs/benchmarks.md, "Validation rules looked up once per class". The change belongs in class-validator
 * (MetadataStorage.getTargetValidationMetadatas).
 */
export function rememberValidationMetadata(): void {
  const storage = getMetadataStorage() as MetadataStorage & { [INSTALLED]?: true }
  if (storage[INSTALLED]) return
  storage[INSTALLED] = true

  const lookUp = storage.getTargetValidationMetadatas.bind(storage)
  const group = storage.groupByPropertyName.bind(storage)
  const add = storage.addValidationMetadata.bind(storage)
  let byTarget = new WeakMap<Target, Map<string, ValidationMetadata[]>>()
  const groupings = new WeakMap<ValidationMetadata[], GroupedMetadatas>()

  storage.addValidationMetadata = (metadata: ValidationMetadata): void => {
    byTarget = new WeakMap()
    add(metadata)
  }
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups !== undefined && groups.length > 0) return lookUp(target, schema, always, strictGroups, groups)
    const options = `${schema}\u0000${always}\u0000${strictGroups}`
    let ofTarget = byTarget.get(target)
    if (ofTarget === undefined) byTarget.set(target, (ofTarget = new Map()))
    let metadatas = ofTarget.get(options)
    if (metadatas === undefined)
      ofTarget.set(options, (metadatas = lookUp(target, schema, always, strictGroups, groups)))
    return metadatas
  }
  storage.groupByPropertyName = (metadatas: ValidationMetadata[]): GroupedMetadatas => {
    let grouped = groupings.get(metadatas)
    if (grouped === undefined) groupings.set(metadatas, (grouped = group(metadatas)))
    return grouped
  }
}
