import 'reflect-metadata'
import {
  Exclude,
  Expose,
  instanceToInstance,
  instanceToPlain,
  plainToInstance,
  Transform,
  TransformationType,
  Type,
} from 'class-transformer'
import { rememberTransformMetadata } from './transform-metadata-memo'

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the storage class is not in the package's index
const { MetadataStorage } = require('class-transformer/cjs/MetadataStorage') as ClassTransformerStorageModule
type ClassTransformerStorageModule = typeof import('class-transformer/types/MetadataStorage')

class Address {
  @Expose({ name: 'street_name' })
  public street!: string

  @Transform(({ value }) => String(value).toUpperCase(), { toClassOnly: true })
  public city!: string
}

class Person {
  public name!: string

  @Type(() => Address)
  public address!: Address

  @Exclude({ toPlainOnly: true })
  public secret!: string

  @Type(() => Date)
  public born!: Date
}

class Employee extends Person {
  @Transform(({ value }) => Number(value) * 100, { toPlainOnly: true })
  public grade!: number

  @Expose({ name: 'employee_id' })
  public id!: string
}

@Exclude()
class OnlyExposed {
  @Expose()
  public shown!: string

  public hidden!: string
}

const plain = {
  name: 'Ada',
  address: { street_name: 'Main', city: 'paris' },
  secret: 's3cret',
  born: '1815-12-10T00:00:00.000Z',
  grade: 3,
  employee_id: 'e-1',
  extra: 'not declared',
}

/** Every conversion class-transformer offers, on inherited, nested, renamed, excluded and transformed properties. */
function conversions(): unknown[] {
  const employee = plainToInstance(Employee, plain)
  const strict = plainToInstance(Employee, plain, { excludeExtraneousValues: true })
  const exposed = plainToInstance(OnlyExposed, { shown: 'yes', hidden: 'no' })
  return [
    employee,
    employee instanceof Employee && employee.address instanceof Address && employee.born instanceof Date,
    instanceToPlain(employee),
    instanceToInstance(employee),
    strict,
    instanceToPlain(strict),
    exposed,
    instanceToPlain(exposed),
    instanceToPlain(plainToInstance(Person, plain)),
  ]
}

describe('rememberTransformMetadata', () => {
  const before = JSON.stringify(conversions())

  beforeAll(() => rememberTransformMetadata())

  it('converts as before: renamed, excluded, transformed, nested and inherited properties, with and without strict keys', () => {
    for (let round = 0; round < 3; round++) expect(JSON.stringify(conversions())).toBe(before)
  })

  it('asks the storage once per class and arguments', () => {
    const storage = new MetadataStorage()
    class Target {}
    storage.addExposeMetadata({ target: Target, propertyName: 'a', options: {} })
    const walk = jest.spyOn(storage as unknown as { getMetadata: () => unknown }, 'getMetadata')
    rememberTransformMetadata(storage)
    for (let i = 0; i < 3; i++) {
      expect(storage.getExposedProperties(Target, TransformationType.CLASS_TO_PLAIN)).toEqual(['a'])
      expect(storage.getExposedProperties(Target, TransformationType.PLAIN_TO_CLASS)).toEqual(['a'])
    }
    // One walk of the class's ancestors in all (the decorators are kept per class, the filtered names per
    // transformation type), where six calls walked six times.
    expect(walk).toHaveBeenCalledTimes(1)
  })

  it('sees a decorator registered after a lookup (a class loaded later) and a cleared storage', () => {
    const storage = new MetadataStorage()
    class Base {}
    rememberTransformMetadata(storage)
    expect(storage.getExposedProperties(Base, TransformationType.CLASS_TO_PLAIN)).toEqual([])
    expect(storage.findTypeMetadata(Base, 'child')).toBeUndefined()

    storage.addExposeMetadata({ target: Base, propertyName: 'late', options: {} })
    storage.addTypeMetadata({
      target: Base,
      propertyName: 'child',
      reflectedType: Object,
      typeFunction: () => Base,
      options: {},
    })
    expect(storage.getExposedProperties(Base, TransformationType.CLASS_TO_PLAIN)).toEqual(['late'])
    expect(storage.findTypeMetadata(Base, 'child')?.propertyName).toBe('child')

    // A subclass defined after its parent was looked up inherits what the parent has now.
    class Later extends Base {}
    expect(storage.getExposedProperties(Later, TransformationType.CLASS_TO_PLAIN)).toEqual(['late'])

    storage.clear()
    expect(storage.getExposedProperties(Base, TransformationType.CLASS_TO_PLAIN)).toEqual([])
  })

  it('installs once: a second call keeps the first wrapping', () => {
    const storage = new MetadataStorage()
    rememberTransformMetadata(storage)
    const wrapped = storage.getExposedProperties
    rememberTransformMetadata(storage)
    expect(storage.getExposedProperties).toBe(wrapped)
  })
})
