export * from './errors'
export * from './logger'
export * from './env'
