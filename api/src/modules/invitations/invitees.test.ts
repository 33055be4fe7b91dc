import { mergeInvitees, normalizeEmail } from './invitees'

const ADMIN = '5a4c2f3e-0b1d-4c6e-8f7a-9b0c1d2e3f40'
const MEMBER = '6b5d3a4f-1c2e-4d7f-9a8b-0c1d2e3f4a51'

describe('mergeInvitees', () => {
  it('keeps one entry per address, case- and space-insensitively, in order of first appearance', () => {
    const merged = mergeInvitees([
      { email: 'Bob@Example.com', orgRoleId: [MEMBER] },
      { email: 'alice@example.com', orgRoleId: [MEMBER] },
      { email: ' bob@example.COM ', orgRoleId: [ADMIN, MEMBER] },
    ])
    expect(merged).toEqual([
      { email: 'bob@example.com', orgRoleIds: [MEMBER, ADMIN] },
      { email: 'alice@example.com', orgRoleIds: [MEMBER] },
    ])
  })

  it('drops repeated role ids of one entry', () => {
    expect(mergeInvitees([{ email: 'a@b.c', orgRoleId: [MEMBER, MEMBER.toUpperCase()] }])).toEqual([
      { email: 'a@b.c', orgRoleIds: [MEMBER] },
    ])
  })
})

describe('normalizeEmail', () => {
  it.each([
    ['Alice@Example.COM', 'alice@example.com'],
    ['  bob@x.io\t', 'bob@x.io'],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeEmail(input)).toBe(expected)
  })
})
