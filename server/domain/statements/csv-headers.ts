/**
 * Header names of the bank exports we know (German, Dutch, Spanish, French, Lithuanian, English,
 * Swiss), compared after `normaliseHeader`. Lists are in order of preference.
 */

/** Lower case, accents removed, whitespace collapsed. */
export function normaliseHeader(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Booking dates first, value dates last. */
export const DATE_HEADERS = [
  'buchungstag',
  'buchungsdatum',
  'boekdatum',
  'booking date',
  'posting date',
  'posted date',
  'date de comptabilisation',
  'fecha contable',
  'data contabile',
  'completed date',
  'transaction date',
  'transactiedatum',
  'datum',
  'date',
  'buchung',
  'fecha',
  'fecha operacion',
  'date operation',
  'data',
  'operacijos data',
  'started date',
  'date de valeur',
  'valutadatum',
  'wertstellung',
  'wertstellungsdatum',
  'value date',
  'fecha valor',
];

export const AMOUNT_HEADERS = [
  'betrag',
  'amount',
  'bedrag',
  'importe',
  'montant',
  'suma',
  'umsatz',
  'transaction amount',
  'importo',
];

export const DEBIT_CREDIT_HEADERS: readonly (readonly [string, string])[] = [
  ['debit amount', 'credit amount'],
  ['debit', 'credit'],
  ['soll', 'haben'],
  ['belastung', 'gutschrift'],
  ['paid out', 'paid in'],
  ['money out', 'money in'],
  ['withdrawals', 'deposits'],
  ['withdrawal', 'deposit'],
  ['uitgaven', 'inkomsten'],
  ['cargo', 'abono'],
  ['debe', 'haber'],
];

export const DIRECTION_HEADERS = [
  'creditdebet',
  'credit/debet',
  'debet/credit',
  'debit/credit',
  'credit/debit',
  'af bij',
  'af/bij',
  'soll/haben',
  's/h',
  'cdtdbtind',
  'd/c',
  'c/d',
  'dr/cr',
  'cr/dr',
];
export const DIRECTION_DEBIT_VALUES = ['D', 'DEBIT', 'DEBET', 'AF', 'S', 'SOLL', 'DBIT', 'DR'];
export const DIRECTION_CREDIT_VALUES = ['C', 'CREDIT', 'BIJ', 'H', 'HABEN', 'CRDT', 'CR'];

/** The other party; joined before the text columns. */
export const COUNTERPARTY_HEADERS = [
  'auftraggeber/empfanger',
  'auftraggeber / empfanger',
  'beguenstigter/zahlungspflichtiger',
  'begunstigter/zahlungspflichtiger',
  'zahlungspflichtige*r',
  'zahlungsempfanger*in',
  'zahlungspflichtiger',
  'zahlungsempfanger',
  'empfanger',
  'auftraggeber',
  'name',
  'payee',
  'payer',
  'counterparty',
  'tegenrekeninghouder',
  'naam / omschrijving',
  'naam',
  'beneficiary',
  'beneficiaire',
  'gavejas',
  'moketojas',
];

/** Free text about the payment. */
export const TEXT_HEADERS = [
  'verwendungszweck',
  'omschrijving',
  'mededelingen',
  'description',
  'desc',
  'transaction description',
  'memo',
  'notes',
  'concepto',
  'libelle',
  'mitteilung',
  'purpose',
  'remittance information',
  'transaction details',
  'beschreibung',
  'descripcion',
  'mokejimo paskirtis',
  'paskirtis',
];
/** Used only when no TEXT_HEADERS column exists (Commerzbank's Buchungstext holds the whole text). */
export const FALLBACK_TEXT_HEADERS = ['buchungstext', 'text', 'details'];
/** Numbered description columns (UBS "Description 1..3") replace a plain "Description". */
export const NUMBERED_TEXT = /^(?:description|beschreibung|libelle) \d+$/;

export const EXTERNAL_ID_HEADERS = [
  'id',
  'transaction id',
  'transaktions-id',
  'referentie',
  'n° de transaction',
  'no de transaction',
  'n° transaction',
  'transaction number',
  'transaction no',
  'transaction reference',
  'fitid',
  'reference number',
  'buchungsreferenz',
];

export const STATUS_HEADERS = ['state', 'status', 'info', 'statut', 'estado'];
export const SKIP_STATUS_VALUES = [
  'PENDING',
  'REVERTED',
  'DECLINED',
  'FAILED',
  'CANCELLED',
  'CANCELED',
  'Vorgemerkt',
  'Umsatz vorgemerkt',
  'In Bearbeitung',
  'En attente',
  'Pendiente',
  'In behandeling',
];

export const FEE_HEADERS = ['fee', 'fees', 'gebuhr', 'gebuhren', 'commission', 'frais'];

/** The own account (not the counterparty's). */
export const ACCOUNT_HEADERS = [
  'iban kontoinhaber',
  'auftragskonto',
  'rekeningnummer',
  'account number',
  'account',
  'produit',
  'eigene iban',
];

export const CURRENCY_HEADERS = [
  'wahrung',
  'waehrung',
  'currency',
  'valutacode',
  'monn.',
  'monnaie',
  'devise',
  'divisa',
  'moneda',
  'ccy',
  'valiuta',
];

/** Whether a normalised header is `synonym`, optionally followed by a bracketed unit: "betrag (€)", "amount (eur)". */
export function headerIs(normalised: string, synonym: string): boolean {
  if (normalised === synonym) return true;
  if (!normalised.startsWith(synonym)) return false;
  return /^\s*[([]/.test(normalised.slice(synonym.length));
}
