import { Transform } from 'class-transformer'
import { IsInt, IsOptional, Max, Min } from 'class-validator'

/** @default 10 (spec: Limits, pageSize). */
export const DEFAULT_PAGE_SIZE = 10
/** Spec: pageSize is 1 to 100 for every bounded list. */
export const MAX_PAGE_SIZE = 100
/**
 * The spec sets no upper bound for pageNumber; ours (docs/decisions.md) keeps the offset a safe integer and far
 * beyond any list we hold (a million pages of 100).
 */
export const MAX_PAGE_NUMBER = 1_000_000

/**
 * Query values are strings; only plain decimal digits become a number. `Number()` alone reads `1e21`, `0x10`,
 * `1.0` and ` 2` as integers (issue 8); anything else stays a string, which `@IsInt` refuses with a 400.
 * routing-controllers converts a query value with `+value` when the property's design type is Number, before
 * class-transformer runs; declaring the design type String (this decorator runs after TypeScript's metadata)
 * leaves the raw string to the transform below.
 */
function DecimalInteger(): PropertyDecorator {
  const toInteger = Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value,
  )
  return (target, key) => {
    Reflect.defineMetadata('design:type', String, target, key)
    toInteger(target, key)
  }
}

/** Query parameters shared by paginated lists; subclass to add search and filters. */
export class PageQuery {
  @IsOptional()
  @DecimalInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_NUMBER)
  pageNumber: number = 1

  @IsOptional()
  @DecimalInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  pageSize: number = DEFAULT_PAGE_SIZE
}

/** The paginated payload of the spec: { totalItems, hasNextPage, hasPreviousPage, nextPage, previousPage, lastPage, data }. */
export interface Page<T> {
  totalItems: number
  hasNextPage: boolean
  hasPreviousPage: boolean
  nextPage: number | null
  previousPage: number | null
  lastPage: number
  data: T[]
}

export function toPage<T>(items: T[], totalItems: number, query: { pageNumber: number; pageSize: number }): Page<T> {
  const lastPage = Math.max(1, Math.ceil(totalItems / query.pageSize))
  const hasNextPage = query.pageNumber < lastPage
  const hasPreviousPage = query.pageNumber > 1
  return {
    totalItems,
    hasNextPage,
    hasPreviousPage,
    nextPage: hasNextPage ? query.pageNumber + 1 : null,
    previousPage: hasPreviousPage ? query.pageNumber - 1 : null,
    lastPage,
    data: items,
  }
}

/** Offset for a page, for repository queries. */
export function pageOffset(query: { pageNumber: number; pageSize: number }): number {
  return (query.pageNumber - 1) * query.pageSize
}
