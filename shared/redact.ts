/** Values that must not reach logs or messages whole: URLs with credentials, and secrets. */

/** A URL with its password (userinfo or `password=` parameter) masked; other text unchanged. */
export function redactUrl(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  // Userinfo ends at the last @ before the path: a password may itself hold an unencoded @.
  const masked = value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^/?#]*@/i, '$1***@');
  return masked.replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** A secret's value as it may be shown: its length only. */
export function hiddenValue(value: string | undefined): string | undefined {
  return value === undefined ? undefined : `(hidden, ${value.length} characters)`;
}
