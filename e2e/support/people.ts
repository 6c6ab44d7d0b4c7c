/** The people a test signs up: one password for all, and an email no other test of the run uses. */

export const PASSWORD = 'correct horse battery';

let people = 0;
/** A fresh email for a person signing up in this run. */
export function newEmail(name = 'ada'): string {
  people += 1;
  return `${name}.${people}.${Date.now().toString(36)}@example.com`;
}
