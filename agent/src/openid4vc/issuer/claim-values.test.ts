import { InvalidInputError } from '@idplane/common'

import { checkClaimValues, disclosureFrameFor, valueAt } from './claim-values'
import type { TemplateClaim } from './credential-template.record'

const employee = {
  format: 'dc+sd-jwt' as const,
  claims: [
    { path: ['given_name'], mandatory: true },
    { path: ['employee_number'], selectivelyDisclosable: false },
    { path: ['address'] },
    { path: ['address', 'locality'] },
    { path: ['roles'] },
  ] satisfies TemplateClaim[],
}

function fieldsOf(values: unknown, template: Parameters<typeof checkClaimValues>[0] = employee): string[] {
  try {
    checkClaimValues(template, values)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return (error as InvalidInputError).fields.map((field) => field.field)
  }
  return []
}

describe('checkClaimValues', () => {
  it('accepts declared claims, objects on the way to declared claims, and any content of a declared claim', () => {
    expect(
      fieldsOf({ given_name: 'Ada', address: { locality: 'Vienna', street: 'Ring 1' }, roles: ['a', 'b'] }),
    ).toEqual([])
  })

  it('names a missing mandatory claim, a null, an undeclared claim and a scalar where claims sit below', () => {
    expect(fieldsOf({})).toEqual(['claims.given_name'])
    expect(fieldsOf({ given_name: null })).toEqual(['claims.given_name'])
    expect(fieldsOf({ given_name: 'Ada', salary: 1 })).toEqual(['claims.salary'])
    expect(fieldsOf('Ada')).toEqual(['claims'])
    expect(fieldsOf({ a: 'flat' }, { format: 'dc+sd-jwt', claims: [{ path: ['a', 'b'] }] })).toEqual(['claims.a'])
  })

  it('prefixes the field names it reports', () => {
    expect(() => checkClaimValues(employee, {}, 'credentials[1].claims')).toThrow(
      expect.objectContaining({ fields: [{ field: 'credentials[1].claims.given_name', message: 'is mandatory' }] }),
    )
  })
})

describe('disclosureFrameFor', () => {
  it('makes every present claim a disclosure at its place unless the template says otherwise', () => {
    expect(
      disclosureFrameFor(employee, { given_name: 'Ada', employee_number: 7, address: { locality: 'Vienna' } }),
    ).toEqual({ _sd: ['given_name', 'address'], address: { _sd: ['locality'] } })
  })

  it('leaves out claims the offer does not give', () => {
    expect(disclosureFrameFor(employee, { given_name: 'Ada' })).toEqual({ _sd: ['given_name'] })
  })
})

describe('valueAt', () => {
  it('follows member names and stops at anything that is not an object', () => {
    expect(valueAt({ a: { b: 1 } }, ['a', 'b'])).toBe(1)
    expect(valueAt({ a: [1] }, ['a', '0'])).toBeUndefined()
    expect(valueAt({ a: 1 }, ['a', 'b'])).toBeUndefined()
    expect(valueAt({}, ['toString'])).toBeUndefined()
  })
})
