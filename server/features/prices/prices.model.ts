/** An exchange rate of one day between two currencies. */
export interface Price {
  id: string;
  date: string;
  from: string;
  to: string;
  /** the rate in 10^-12 units */
  rateScaled: bigint;
  createdAt: string;
}
