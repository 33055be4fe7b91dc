import 'reflect-metadata'
import { plainToInstance } from 'class-transformer'
import { validate } from 'class-validator'
import { SpinUpAgentDto } from './spin-up-agent.dto'

async function failingFields(body: object): Promise<string[]> {
  const errors = await validate(plainToInstance(SpinUpAgentDto, body), { whitelist: true, forbidNonWhitelisted: true })
  return errors.map((error) => error.property)
}

describe('SpinUpAgentDto', () => {
  it('accepts indy as the first DID method, with or without a seed, and needs no domain for it', async () => {
    expect(await failingFields({ label: 'Acme', method: 'indy' })).toEqual([])
    expect(await failingFields({ label: 'Acme', method: 'indy', seed: 'a'.repeat(32) })).toEqual([])
  })

  it('refuses a method it cannot create, and web without a domain', async () => {
    expect(await failingFields({ label: 'Acme', method: 'sov' })).toEqual(['method'])
    expect(await failingFields({ label: 'Acme', method: 'INDY' })).toEqual(['method'])
    expect(await failingFields({ label: 'Acme', method: 'web' })).toEqual(['domain'])
    expect(await failingFields({ label: 'Acme', method: 'indy', seed: 'short' })).toEqual(['seed'])
  })
})
