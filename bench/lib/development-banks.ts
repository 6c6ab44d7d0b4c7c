/** The six development banks of the suggestion benchmark: the formats looked at while the classifier was written. */
import { REGIONS } from './bank-regions.ts';
import { cardStatement, clock12, clock24, ddmm, digits, mmdd, MONTHS_EN, pad, type Bank } from './bank-printing.ts';

const { US, DE, FR, CN } = REGIONS;

/** Card purchases as a US credit union prints them: a network code, the city, the channel, the time. */
const usCreditUnion: Bank = {
  id: 'us-credit-union',
  split: 'development',
  region: US,
  language: 'en',
  statementAccount: 'checking',
  print(l, r, card) {
    const at = `${mmdd(l.date)} ${clock12(l.minute)} #${card}`;
    switch (l.kind) {
      case 'card':
      case 'refund': {
        const channel =
          l.kind === 'refund'
            ? 'Mobile Purchase Returns'
            : r.pick(['Mobile Purchase Sign Based', 'Debit Card Purchase', 'Mobile Purchase Sign Based']);
        if (l.kind === 'card' && r.chance(0.15))
          return `${l.name} ${l.city.slice(0, 13)}${l.region}US${digits(r, 5)} : Debit PIN Purchase `;
        const code = r.chance(0.5) ? `D${digits(r, 4)} ` : '';
        return `${code}${l.name} ${l.city.slice(0, 13)} ${l.region} ${digits(r, 2)} : ${channel} ${at} `;
      }
      case 'bill':
        return `ACH Electronic Debit - ${l.name} ${r.chance(0.5) ? digits(r, 3) : 'WEB PMTS'}`;
      case 'salary':
        return `ACH Electronic Credit ${l.name} PAYROLL`;
      case 'interest':
        return 'Dividend Deposit';
      case 'fee':
        return r.chance(0.5) ? 'Fee for Non-Network ATM use' : 'Overdraft Transfer Fee';
      case 'savings':
        return `Online Transfer to SAV ...${card.slice(0, 2)}${digits(r, 2)} transaction#: ${digits(r, 10)}`;
      case 'cardPayment':
        return `ACH Electronic Debit - DISCOVER E-PAYMENT ${digits(r, 3)}`;
      case 'atm':
        return `ATM Withdrawal ${at} ${l.city.slice(0, 13)} ${l.region}`;
    }
  },
};

/** A US bank's checking account: card lines with the date and PURCHASE, ACH lines in the NACHA layout. */
const usBankChecking: Bank = {
  id: 'us-bank-checking',
  split: 'development',
  region: US,
  language: 'en',
  statementAccount: 'checking',
  print(l, r, card) {
    switch (l.kind) {
      case 'card':
        return r.chance(0.4)
          ? `CHECKCARD ${mmdd(l.date).replace('/', '')} ${l.name} ${l.city} ${l.region} ${digits(r, 23)}`
          : `${l.name} ${mmdd(l.date)} PURCHASE ${l.city} ${l.region}`;
      case 'refund':
        return `${l.name} ${mmdd(l.date)} REFUND ${l.city} ${l.region}`;
      case 'bill':
        return `${l.name} DES:${r.pick(['BILL PAY', 'PAYMENT', 'AUTOPAY'])} ID:${digits(r, 9)} INDN:JANE DOE CO ID:${digits(r, 10)} ${r.pick(['PPD', 'WEB'])}`;
      case 'salary':
        return `${l.name} DES:PAYROLL ID:${digits(r, 12)} INDN:JANE DOE CO ID:${digits(r, 10)} PPD`;
      case 'interest':
        return 'Interest Earned';
      case 'fee':
        return 'Monthly Maintenance Fee';
      case 'savings':
        return `Online Banking transfer to SAV ${card} Confirmation# ${digits(r, 10)}`;
      case 'cardPayment':
        return `Online Banking payment to CRD ${digits(r, 4)} Confirmation# ${digits(r, 10)}`;
      case 'atm':
        return `BKOFAMERICA ATM ${mmdd(l.date)} #${digits(r, 9)} WITHDRWL ${l.city} ${l.region}`;
    }
  },
};

/** A US card issuer's card: the merchant as the network sends it, processors' prefixes, payments. */
const usCardIssuer: Bank = {
  id: 'us-card-issuer',
  split: 'development',
  region: US,
  language: 'en',
  statementAccount: 'card',
  print: cardStatement({
    merchant(l, r) {
      const prefix = l.kind === 'bill' ? '' : r.pick(['', '', '', 'SQ *', 'TST* ', 'PAYPAL *', 'SP ']);
      return `${prefix}${l.name}${r.chance(0.3) ? ` #${digits(r, 4)}` : ''} ${l.city} ${l.region}`;
    },
    payment: ['Payment Thank You-Mobile', 'AUTOMATIC PAYMENT - THANK YOU'],
    fee: ['PURCHASE INTEREST CHARGE', 'LATE FEE'],
    interest: 'CASH REWARDS STATEMENT CREDIT',
  }),
};

/** A German savings bank: card payments with the terminal's time stamp, direct debits with mandates. */
const deSavingsBank: Bank = {
  id: 'de-savings-bank',
  split: 'development',
  region: DE,
  language: 'en',
  statementAccount: 'checking',
  print(l, r) {
    const stamp = `${l.date}T${clock24(l.minute)}:${pad(r.int(0, 59))}`;
    switch (l.kind) {
      case 'card':
        return `KARTENZAHLUNG girocard ${l.name}//${l.city}/DE ${stamp} Folgenr. ${digits(r, 3)} Verfalld. 2027-12`;
      case 'refund':
        return `GUTSCHRIFT ${l.name}//${l.city}/DE ${stamp} Folgenr. ${digits(r, 3)}`;
      case 'bill':
        return `LASTSCHRIFT ${l.name} Kd-Nr. ${digits(r, 8)} END-TO-END-REF.: ${digits(r, 12)} Mandatsref: M${digits(r, 7)} Glaeubiger-ID: DE${digits(r, 2)}ZZZ${digits(r, 11)}`;
      case 'salary':
        return `GUTSCHR. UEBERWEISUNG ${l.name} LOHN/GEHALT ${l.date.slice(5, 7)}/${l.date.slice(0, 4)}`;
      case 'interest':
        return 'ZINSEN/ENTGELT Habenzinsen';
      case 'fee':
        return 'ENTGELTABSCHLUSS Kontofuehrung';
      case 'savings':
        return `UEBERWEISUNG Tagesgeld DE${digits(r, 20)}`;
      case 'cardPayment':
        return `LASTSCHRIFT Kreditkartenabrechnung ${digits(r, 6)}`;
      case 'atm':
        return `BARGELDAUSZAHLUNG GA ${l.city} ${stamp} Folgenr. ${digits(r, 3)}`;
    }
  },
};

/** A French bank: CB and the day, PRLV SEPA, VIR. */
const frBank: Bank = {
  id: 'fr-bank',
  split: 'development',
  region: FR,
  language: 'en',
  statementAccount: 'checking',
  print(l, r, card) {
    switch (l.kind) {
      case 'card':
        return r.chance(0.5)
          ? `CB ${l.name} ${ddmm(l.date)}`
          : `PAIEMENT PAR CARTE X${card} ${l.name} ${l.city} ${ddmm(l.date)}`;
      case 'refund':
        return `AVOIR CB ${l.name} ${ddmm(l.date)}`;
      case 'bill':
        return `PRLV SEPA ${l.name} ${digits(r, 10)} ECH/${ddmm(l.date)}${l.date.slice(2, 4)}`;
      case 'salary':
        return `VIR SEPA RECU /DE ${l.name} /MOTIF SALAIRE ${MONTHS_EN[Number(l.date.slice(5, 7)) - 1]}`;
      case 'interest':
        return 'INTERETS CREDITEURS';
      case 'fee':
        return 'FRAIS TENUE DE COMPTE';
      case 'savings':
        return `VIR PERMANENT LIVRET A ${digits(r, 6)}`;
      case 'cardPayment':
        return `PRLV CARTE DIFFEREE ${digits(r, 6)}`;
      case 'atm':
        return `RETRAIT DAB ${ddmm(l.date)} ${l.city}`;
    }
  },
};

/** A Chinese bank's statement: 消费 and the payment platform, then the merchant. */
const cnBankA: Bank = {
  id: 'cn-bank-a',
  split: 'development',
  region: CN,
  language: 'zh',
  statementAccount: 'checking',
  print(l, r) {
    switch (l.kind) {
      case 'card':
        return r.pick([`消费 支付宝-${l.name}`, `消费 财付通-${l.name}`, `POS消费 ${l.name}`]);
      case 'refund':
        return `退货 支付宝-${l.name}`;
      case 'bill':
        return `代扣 ${l.name} ${digits(r, 8)}`;
      case 'salary':
        return `代发工资 ${l.name}`;
      case 'interest':
        return '结息';
      case 'fee':
        return '短信服务费';
      case 'savings':
        return `转账 储蓄 ${digits(r, 4)}`;
      case 'cardPayment':
        return `信用卡还款 ${digits(r, 4)}`;
      case 'atm':
        return `ATM取款 ${l.city}`;
    }
  },
};

export const DEVELOPMENT_BANKS: readonly Bank[] = [
  usCreditUnion,
  usBankChecking,
  usCardIssuer,
  deSavingsBank,
  frBank,
  cnBankA,
];
