import {
  getMetadataStorage,
  IsInt,
  IsString,
  Min,
  registerDecorator,
  validateSync,
  ValidateNested,
} from 'class-validator'
import { Type } from 'class-transformer'

import { rememberValidationMetadata } from './validation-metadata-memo'

class Address {
  @IsString()
  public street!: unknown
}

class Person {
  @IsString()
  public name!: unknown

  @ValidateNested()
  @Type(() => Address)
  public address!: unknown
}

class Employee extends Person {
  @IsInt()
  @Min(1, { groups: ['strict'] })
  public grade!: unknown
}

function violations(value: object, groups?: string[]): string[] {
  return validateSync(value, { groups })
    .flatMap(function flatten(error): string[] {
      return [
        ...Object.keys(error.constraints ?? {}).map((constraint) => `${error.property}:${constraint}`),
        ...(error.children ?? []).flatMap(flatten),
      ]
    })
    .sort()
}

function employee(fields: Record<string, unknown>): Employee {
  const address = Object.assign(new Address(), { street: fields.street })
  return Object.assign(new Employee(), { name: fields.name, grade: fields.grade, address })
}

describe('rememberValidationMetadata', () => {
  const invalid = employee({ name: 1, grade: 0.5, street: 2 })
  const valid = employee({ name: 'Ada', grade: 3, street: 'Main' })
  const before = { invalid: violations(invalid), valid: violations(valid), grouped: violations(invalid, ['strict']) }

  beforeAll(() => rememberValidationMetadata())

  it('answers every validation as before, inherited and nested rules included, with and without groups', () => {
    for (let round = 0; round < 3; round++) {
      expect(violations(invalid)).toEqual(before.invalid)
      expect(violations(valid)).toEqual(before.valid)
      expect(violations(invalid, ['strict'])).toEqual(before.grouped)
    }
    expect(before.invalid).toEqual(['grade:isInt', 'grade:min', 'name:isString', 'street:isString'])
    expect(before.grouped).toEqual(['grade:min'])
  })

  it('looks a class up once and hands out the same rules until a rule is added', () => {
    const storage = getMetadataStorage()
    const first = storage.getTargetValidationMetadatas(Employee, '', false, false)
    expect(storage.getTargetValidationMetadatas(Employee, '', false, false)).toBe(first)
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first))
    expect(storage.getTargetValidationMetadatas(Employee, '', true, false)).not.toBe(first)
  })

  it('sees a rule added after a lookup (a class loaded later, a decorator registered late)', () => {
    expect(violations(employee({ name: 'x', grade: 3, street: 'Main' }))).toEqual([])
    registerDecorator({
      name: 'longName',
      target: Person,
      propertyName: 'name',
      validator: { validate: (value: unknown) => typeof value === 'string' && value.length > 2 },
    })
    expect(violations(employee({ name: 'x', grade: 3, street: 'Main' }))).toEqual(['name:longName'])

    class Manager extends Employee {
      @IsString()
      public team!: unknown
    }
    const manager = Object.assign(new Manager(), valid, { team: 7 })
    expect(violations(manager)).toEqual(['team:isString'])
  })
})
