import type { OrgRoleName } from '../memberships/org-role.entity'

/** Spec: the question-answer and basic-message routes allow every organization role. */
export const MESSAGE_ROLES: readonly OrgRoleName[] = [
  'owner',
  'admin',
  'issuer',
  'verifier',
  'member',
  'holder',
  'super_admin',
  'platform_admin',
]
