import type { BookingMethod } from '../../domain/lots.ts';

/** The securities and an investment account's settings: what trades, holdings and gains name. */
export interface Security {
  id: string;
  symbol: string;
  name: string;
  currency: string;
  createdAt: string;
}

export interface InvestmentSettings {
  accountId: string;
  bookingMethod: BookingMethod;
  shortTermAccountId: string | null;
  longTermAccountId: string | null;
  longTermDays: number;
}
