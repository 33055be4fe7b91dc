// busboy 1.6 ships no types and @types/busboy is not installed; only what csv-upload.ts uses is declared.
declare module 'busboy' {
  import type { IncomingHttpHeaders } from 'node:http'
  import type { Readable, Writable } from 'node:stream'

  interface BusboyConfig {
    headers: IncomingHttpHeaders
    limits?: {
      fieldSize?: number
      fields?: number
      fileSize?: number
      files?: number
      parts?: number
      headerPairs?: number
    }
    defParamCharset?: string
  }
  interface FileInfo {
    filename?: string
    encoding: string
    mimeType: string
  }
  interface FieldInfo {
    nameTruncated: boolean
    valueTruncated: boolean
    encoding: string
    mimeType: string
  }
  interface Busboy extends Writable {
    on(
      event: 'file',
      listener: (name: string, stream: Readable & { truncated?: boolean }, info: FileInfo) => void,
    ): this
    on(event: 'field', listener: (name: string, value: string, info: FieldInfo) => void): this
    on(event: 'partsLimit' | 'filesLimit' | 'fieldsLimit' | 'close' | 'finish', listener: () => void): this
    on(event: 'error', listener: (error: Error) => void): this
  }
  function busboy(config: BusboyConfig): Busboy
  export default busboy
}
