/**
 * The roles an ID token carries. Having none makes a tenant: any signed-in user, who owns projects
 * and memories and reaches nothing else. An operator also runs the shared infrastructure (search
 * operations on the cluster, alarms, granting roles).
 */
export const ROLES = ['operator'] as const;

export type Role = (typeof ROLES)[number];

/** Whether a claim's value names a role plat knows (anything else in a token is ignored). */
export function isRole(value: unknown): value is Role {
  return (ROLES as readonly unknown[]).includes(value);
}

/** The known roles in a `roles` claim, whatever else the claim holds. */
export function rolesIn(claim: unknown): Role[] {
  return Array.isArray(claim) ? [...new Set(claim.filter(isRole))] : [];
}

/**
 * The roles an external issuer's groups grant: operator when the token's `groups` or
 * `cognito:groups` claim holds `operatorGroup` (PLAT_OIDC_OPERATOR_GROUP). Its own `roles` claim, if
 * any, is the issuer's vocabulary and grants nothing here.
 */
export function rolesFromGroups(payload: Record<string, unknown>, operatorGroup?: string): Role[] {
  if (!operatorGroup) return [];
  const groups = [payload.groups, payload['cognito:groups']].flatMap((g) =>
    Array.isArray(g) ? g : typeof g === 'string' ? [g] : [],
  );
  return groups.includes(operatorGroup) ? ['operator'] : [];
}
