import { IsIn } from 'class-validator'

/**
 * `@IsIn(values)` for a query field typed as a union of strings. routing-controllers converts each query value
 * by the property's design type, and a union type alias has none usable (JSON parsing is attempted, so
 * `?status=accepted` fails); declaring the design type String keeps the raw string for the validator.
 */
export function QueryEnum(values: readonly string[]): PropertyDecorator {
  const isIn = IsIn(values)
  return (target, key) => {
    Reflect.defineMetadata('design:type', String, target, key)
    isIn(target, key)
  }
}
