import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator'
import { HasRunnablePatterns } from './filter-patterns'

/**
 * DIF Presentation Exchange v1 presentation definition (spec: Verification, `presentationDefinition`). The spec's
 * fields are checked here; the other fields of PE v1 are accepted with their types, and unknown keys are refused
 * (400), like everywhere in the API. Filters and formats are JSON objects passed to the agent as they are.
 */
const TEXT = 1000
const MAX_DESCRIPTORS = 50
const MAX_FIELDS = 50

export class InputDescriptorSchemaDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  uri: string

  @IsOptional()
  @IsBoolean()
  required?: boolean
}

export class ConstraintFieldDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(TEXT, { each: true })
  path: string[]

  @IsOptional() @IsString() @MaxLength(TEXT) id?: string
  @IsOptional() @IsString() @MaxLength(TEXT) name?: string
  @IsOptional() @IsString() @MaxLength(TEXT) purpose?: string
  // Passed to the agents as it is; its patterns must be ones their linear-time matcher runs.
  @IsOptional() @IsObject() @HasRunnablePatterns() filter?: Record<string, unknown>
  @IsOptional() @IsBoolean() optional?: boolean
  @IsOptional() @IsIn(['required', 'preferred']) predicate?: 'required' | 'preferred'
  @IsOptional() @IsBoolean() intent_to_retain?: boolean
}

export class ConstraintsDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FIELDS)
  @ValidateNested({ each: true })
  @Type(() => ConstraintFieldDto)
  fields?: ConstraintFieldDto[]

  @IsOptional() @IsIn(['required', 'preferred']) limit_disclosure?: 'required' | 'preferred'
  @IsOptional() @IsIn(['required', 'preferred']) subject_is_issuer?: 'required' | 'preferred'
  @IsOptional() @IsObject() statuses?: Record<string, unknown>
  @IsOptional() @IsArray() @IsObject({ each: true }) is_holder?: Record<string, unknown>[]
  @IsOptional() @IsArray() @IsObject({ each: true }) same_subject?: Record<string, unknown>[]
}

export class InputDescriptorDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(TEXT)
  id: string

  @IsOptional() @IsString() @MaxLength(TEXT) name?: string
  @IsOptional() @IsString() @MaxLength(TEXT) purpose?: string
  @IsOptional() @IsArray() @IsString({ each: true }) group?: string[]

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => InputDescriptorSchemaDto)
  schema: InputDescriptorSchemaDto[]

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ConstraintsDto)
  constraints?: ConstraintsDto

  /** Claim format designations (`ldp_vc: { proof_type: [...] }` ...): enforced by the agent on verification. */
  @IsOptional() @IsObject() format?: Record<string, unknown>
}

export class PresentationDefinitionDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(TEXT)
  id: string

  @IsOptional() @IsString() @MaxLength(TEXT) name?: string
  @IsOptional() @IsString() @MaxLength(TEXT) purpose?: string

  /** Claim format designations for the whole presentation; enforced by the agent on verification. */
  @IsOptional() @IsObject() format?: Record<string, unknown>

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_DESCRIPTORS)
  @ValidateNested({ each: true })
  @Type(() => InputDescriptorDto)
  input_descriptors: InputDescriptorDto[]

  @IsOptional() @IsArray() @IsObject({ each: true }) submission_requirements?: Record<string, unknown>[]
}
