/** The six held-out banks of the suggestion benchmark: formats the classifier was not written against (published figures). */
import { REGIONS } from './bank-regions.ts';
import { cardStatement, clock24, ddmm, digits, mmdd, MONTHS_EN, type Bank } from './bank-printing.ts';

const { US, UK, NL, AU, CN } = REGIONS;

/** Held out: a US bank that writes "PURCHASE AUTHORIZED ON", a sequence number and the card. */
const usAuthorizedOn: Bank = {
  id: 'us-authorized-on',
  split: 'held-out',
  region: US,
  language: 'en',
  statementAccount: 'checking',
  print(l, r, card) {
    switch (l.kind) {
      case 'card':
        return `PURCHASE AUTHORIZED ON ${mmdd(l.date)} ${l.name} ${l.city} ${l.region} S${digits(r, 15)} CARD ${card}`;
      case 'refund':
        return `PURCHASE RETURN AUTHORIZED ON ${mmdd(l.date)} ${l.name} ${l.city} ${l.region} S${digits(r, 15)} CARD ${card}`;
      case 'bill':
        return r.chance(0.5)
          ? `RECURRING PAYMENT AUTHORIZED ON ${mmdd(l.date)} ${l.name} ${l.region} S${digits(r, 15)} CARD ${card}`
          : `${l.name} BILL PAYMT ${l.date.slice(2, 4)}${l.date.slice(5, 7)}${l.date.slice(8, 10)} ${digits(r, 10)} JANE DOE`;
      case 'salary':
        return `${l.name} PAYROLL ${l.date.slice(2, 4)}${l.date.slice(5, 7)}${l.date.slice(8, 10)} ${digits(r, 15)} DOE,JANE`;
      case 'interest':
        return 'INTEREST PAYMENT';
      case 'fee':
        return 'MONTHLY SERVICE FEE';
      case 'savings':
        return `ONLINE TRANSFER REF #IB0${digits(r, 7)} TO WAY2SAVE SAVINGS XXXXXX${digits(r, 4)} ON ${mmdd(l.date)}/${l.date.slice(2, 4)}`;
      case 'cardPayment':
        return `ONLINE TRANSFER REF #IB0${digits(r, 7)} TO VISA SIGNATURE CARD XXXXXX${digits(r, 4)}`;
      case 'atm':
        return `ATM WITHDRAWAL AUTHORIZED ON ${mmdd(l.date)} ${digits(r, 4)} MAIN ST ${l.city} ${l.region} ${digits(r, 10)} ATM ID ${digits(r, 4)}I CARD ${card}`;
    }
  },
};

/** Held out: a charge card's statement, phone numbers and Apple Pay marks in the merchant field. */
const usChargeCard: Bank = {
  id: 'us-charge-card',
  split: 'held-out',
  region: US,
  language: 'en',
  statementAccount: 'card',
  print: cardStatement({
    merchant(l, r) {
      const where = r.chance(0.3)
        ? `${digits(r, 3)}-${digits(r, 3)}-${digits(r, 4)} ${l.region}`
        : `${l.city} ${l.region}`;
      return `${l.kind === 'card' && r.chance(0.3) ? 'AplPay ' : ''}${l.name}${r.chance(0.3) ? ` 000000${digits(r, 4)}` : ''} ${where}`;
    },
    payment: ['ONLINE PAYMENT - THANK YOU', 'AUTOPAY PAYMENT - THANK YOU'],
    fee: ['INTEREST CHARGE ON PAY OVER TIME PURCHASES', 'ANNUAL MEMBERSHIP FEE'],
    interest: 'REWARD DOLLARS CREDIT',
  }),
};

/** Held out: a UK bank: the day and month after ON, contactless and direct debit marks. */
const ukBank: Bank = {
  id: 'uk-bank',
  split: 'held-out',
  region: UK,
  language: 'en',
  statementAccount: 'checking',
  print(l, r) {
    const on = `ON ${l.date.slice(8, 10)} ${MONTHS_EN[Number(l.date.slice(5, 7)) - 1]}`;
    switch (l.kind) {
      case 'card':
        return r.pick([`${l.name} ${on} CLP`, `${l.name} ${on} BCC`, `CARD PAYMENT TO ${l.name} ${on}`]);
      case 'refund':
        return `REFUND FROM ${l.name} ${on}`;
      case 'bill':
        return `DIRECT DEBIT TO ${l.name} REF ${digits(r, 8)}`;
      case 'salary':
        return `BANK GIRO CREDIT REF ${l.name} SALARY`;
      case 'interest':
        return 'INTEREST (GROSS)';
      case 'fee':
        return 'COMMISSION CHARGES';
      case 'savings':
        return `TRANSFER TO ${digits(r, 2)}-${digits(r, 2)}-${digits(r, 2)} ${digits(r, 8)} RAINY DAY`;
      case 'cardPayment':
        return `BILL PAYMENT TO BARCLAYCARD REF ${digits(r, 16)}`;
      case 'atm':
        return `CASH WITHDRAWAL AT LINK ${l.city} ${on}`;
    }
  },
};

/** Held out: a Dutch bank's CSV, name and notifications columns read together. */
const nlBank: Bank = {
  id: 'nl-bank',
  split: 'held-out',
  region: NL,
  language: 'en',
  statementAccount: 'checking',
  print(l, r) {
    const dmy = `${l.date.slice(8, 10)}-${l.date.slice(5, 7)}-${l.date.slice(0, 4)}`;
    const iban = `NL${digits(r, 2)}INGB${digits(r, 10)}`;
    switch (l.kind) {
      case 'card':
        return `${l.name} ${l.city} ${l.region} Pasvolgnr: 00${r.int(1, 9)} ${dmy} ${clock24(l.minute)} Transactie: ${digits(r, 2)}A${digits(r, 3)}B Term: ${digits(r, 7)}`;
      case 'refund':
        return `${l.name} ${l.city} ${l.region} Terugboeking Pasvolgnr: 00${r.int(1, 9)} ${dmy}`;
      case 'bill':
        return `${l.name} Incasso Omschrijving: ${digits(r, 10)} IBAN: ${iban} Kenmerk: ${digits(r, 16)} Machtiging ID: ${digits(r, 8)} Incassant ID: NL${digits(r, 2)}ZZZ${digits(r, 12)}`;
      case 'salary':
        return `${l.name} Overschrijving Omschrijving: SALARIS ${MONTHS_EN[Number(l.date.slice(5, 7)) - 1]} IBAN: ${iban}`;
      case 'interest':
        return 'Rente Oranje Spaarrekening';
      case 'fee':
        return 'Kosten OranjePakket';
      case 'savings':
        return `Naar Oranje spaarrekening V${digits(r, 7)}`;
      case 'cardPayment':
        return `ING Creditcard Incasso Kenmerk: ${digits(r, 16)}`;
      case 'atm':
        return `Geldautomaat ${l.city} Pasvolgnr: 00${r.int(1, 9)} ${dmy} ${clock24(l.minute)}`;
    }
  },
};

/** Held out: a Chinese bank where every payment names WeChat Pay, Alipay or the clearing network. */
const cnBankB: Bank = {
  id: 'cn-bank-b',
  split: 'held-out',
  region: CN,
  language: 'zh',
  statementAccount: 'checking',
  print(l, r) {
    switch (l.kind) {
      case 'card':
        return r.pick([
          `财付通-微信支付-${l.name}`,
          `支付宝-${l.name}`,
          `网联协议支付 ${l.name}`,
          `银联在线 ${l.name} ${digits(r, 12)}`,
        ]);
      case 'refund':
        return `财付通-微信支付-${l.name}退款`;
      case 'bill':
        return `网联代扣 ${l.name}`;
      case 'salary':
        return `代发 工资 ${l.name}`;
      case 'interest':
        return '活期结息';
      case 'fee':
        return '账户管理费';
      case 'savings':
        return '朝朝宝转入';
      case 'cardPayment':
        return `自动还款 信用卡 ${digits(r, 4)}`;
      case 'atm':
        return `ATM取现 ${l.city}${digits(r, 4)}`;
    }
  },
};

/** Held out: an Australian bank: the card's last digits and the value date after the merchant. */
const auBank: Bank = {
  id: 'au-bank',
  split: 'held-out',
  region: AU,
  language: 'en',
  statementAccount: 'checking',
  print(l, r, card) {
    const value = `Value Date: ${ddmm(l.date)}/${l.date.slice(0, 4)}`;
    switch (l.kind) {
      case 'card':
        return r.chance(0.5)
          ? `${l.name} ${l.city} ${l.region} AU Card xx${card} ${value}`
          : `${l.name} ${l.city} AUS Card xx${card}`;
      case 'refund':
        return `Refund ${l.name} ${l.city} AUS Card xx${card}`;
      case 'bill':
        return `Direct Debit ${digits(r, 6)} ${l.name} ${digits(r, 9)}`;
      case 'salary':
        return `Salary ${l.name} ${digits(r, 6)}`;
      case 'interest':
        return 'Credit Interest';
      case 'fee':
        return 'Account Fee';
      case 'savings':
        return `Transfer to xx${digits(r, 4)} CommBank app Savings`;
      case 'cardPayment':
        return `Transfer to other Bank NetBank Credit Card ${digits(r, 4)}`;
      case 'atm':
        return `Wdl ATM CBA ATM ${l.city} ${l.region} ${digits(r, 6)} AUS`;
    }
  },
};

export const HELD_OUT_BANKS: readonly Bank[] = [usAuthorizedOn, usChargeCard, ukBank, nlBank, cnBankB, auBank];
