/**
 * Header names of the bank exports we know (German, Dutch, Spanish, French, Lithuanian, English,
 * Swiss, Japanese, Korean, Chinese), compared after `normaliseHeader`. Lists are in order of
 * preference.
 */

/** Lower case, Latin accents removed (Hangul and kana recomposed as written), whitespace collapsed. */
export function normaliseHeader(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
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
  '取引日',
  '年月日',
  '日付',
  '利用日',
  '거래일자',
  '거래일',
  '거래일시',
  '交易日期',
  '记账日期',
  '交易日',
  '日期',
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
  '取引金額',
  '利用金額',
  '金額',
  '거래금액',
  '금액',
  '交易金额',
  '金额',
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
  ['お引出し', 'お預入れ'],
  ['出金', '入金'],
  ['出金額', '入金額'],
  ['支払金額', '預入金額'],
  ['출금액', '입금액'],
  ['출금', '입금'],
  ['찾으신금액', '맡기신금액'],
  ['支出金额', '收入金额'],
  ['支出', '收入'],
  ['借方发生额', '贷方发生额'],
  ['借方金额', '贷方金额'],
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
  'auftraggeber/begunstigter',
  'auftraggeber / begunstigter',
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
  '利用店名',
  '对方户名',
  '交易对方',
  '对方名称',
  '받는분',
  '보낸분',
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
  '摘要',
  'お取り扱い内容',
  'お取引内容',
  '取引内容',
  '内容',
  '적요',
  '거래내용',
  '기재내용',
  '내용',
  '交易摘要',
  '摘要说明',
  '用途',
  '备注',
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

/** A running balance after each row: its last row by date gives the closing balance. */
export const BALANCE_HEADERS = ['balance', 'running balance', 'account balance', '余额', '账户余额'];

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
