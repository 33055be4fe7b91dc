import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import type { OpenAPIObject, OperationObject, ReferenceObject } from 'openapi3-ts'
import type { Response } from 'supertest'

/**
 * Checks answers against the OpenAPI document: the status must be documented for the operation and the body
 * must match its schema. `problems` collects what did not, as `<method> <path template> <status>: <why>`.
 */
export function openApiAnswerChecker(doc: OpenAPIObject) {
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  // Local refs point into the document: compile against a copy of its components under the id `doc`.
  const rebase = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll('"#/components/', '"doc#/components/'))
  ajv.addSchema({ $id: 'doc', components: rebase(doc.components) })
  const problems: string[] = []

  const check = (method: string, template: string, res: Response): Response => {
    const operation = (doc.paths[template] as Record<string, OperationObject> | undefined)?.[method]
    let answer = operation?.responses[String(res.status)] as
      | ReferenceObject
      | { content?: Record<string, { schema: unknown }> }
      | undefined
    if (answer && '$ref' in answer) {
      answer = doc.components?.responses?.[answer.$ref.split('/').pop() ?? ''] as typeof answer
    }
    const schema = answer && !('$ref' in answer) ? answer.content?.['application/json']?.schema : undefined
    if (!schema) {
      problems.push(`${method} ${template} ${res.status}: not documented`)
      return res
    }
    const validate = ajv.compile(rebase(schema) as object)
    if (!validate(res.body)) problems.push(`${method} ${template} ${res.status}: ${ajv.errorsText(validate.errors)}`)
    return res
  }
  return { check, problems }
}
