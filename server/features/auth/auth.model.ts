/** A user of the app, who signs in and owns one ledger. */
export interface User {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  createdAt: string;
  /** When the password was last changed or reset (null: as registered). */
  passwordChangedAt: string | null;
}
