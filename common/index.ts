export * from './errors'
export * from './logger'
export * from './env'
export * from './file-lock'
