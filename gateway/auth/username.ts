/** What a built-in account's name may be: the same rule at sign-up and wherever a name is a parameter. */
import { z } from 'zod';

export const usernameSchema = z
  .string()
  .regex(/^[A-Za-z0-9._@-]{3,64}$/, '3-64 characters: letters, digits, . _ @ -');
