import { Type } from 'class-transformer'
import { IsInt, IsOptional, Max, Min } from 'class-validator'

/** @default 10 (spec: Limits, pageSize). */
export const DEFAULT_PAGE_SIZE = 10
/** Spec: pageSize is 1 to 100 for every bounded list. */
export const MAX_PAGE_SIZE = 100

/** Query parameters shared by paginated lists; subclass to add search and filters. */
export class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  pageNumber: number = 1

  @IsOptional()
  @Type(() => Number)
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
