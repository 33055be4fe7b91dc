// class-transformer ships the storage's types under types/ and its CommonJS code under cjs/.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage'
}
