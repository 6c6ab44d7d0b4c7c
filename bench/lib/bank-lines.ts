/**
 * Bank lines for the suggestion benchmark (bench/suggestions.ts): a household's eighteen months of
 * card purchases, bills, pay, transfers and cash as twelve banks print them, each line with the
 * account its owner books it to. Written apart from the app's classifier and never read by it:
 * nothing under server/ imports this file, and the classifier learns only from what a user books.
 *
 * Split. Banks and merchants are each either `development` (the figures looked at while the
 * classifier was written) or `held-out` (the published figures). A held-out user banks with a
 * held-out bank's format and shops at held-out merchants only: the chains of their region that
 * the split gives to held-out, and one-off shops whose proper names come from the held-out half of
 * the name lists. Words that say what a shop sells (CAFE, PHARMACY, 超市) are a language's own and
 * appear on both sides, as they do in life; the classifier has to learn them from the user's own
 * bookings either way.
 */
import { Random } from './random.ts';

export type Split = 'development' | 'held-out';

export type AccountKind = 'ASSET' | 'LIABILITY' | 'INCOME' | 'EXPENSE' | 'EQUITY';

/** The chart every user keeps (names in the user's language); `key` is the truth a line is booked to. */
export const CHART: readonly { key: string; type: AccountKind; en: string; zh: string }[] = [
  { key: 'checking', type: 'ASSET', en: 'Checking', zh: '活期账户' },
  { key: 'savings', type: 'ASSET', en: 'Savings', zh: '储蓄账户' },
  { key: 'cash', type: 'ASSET', en: 'Cash', zh: '现金' },
  { key: 'card', type: 'LIABILITY', en: 'Credit card', zh: '信用卡' },
  { key: 'opening', type: 'EQUITY', en: 'Opening balances', zh: '期初余额' },
  { key: 'salary', type: 'INCOME', en: 'Salary', zh: '工资' },
  { key: 'interest', type: 'INCOME', en: 'Interest', zh: '利息收入' },
  { key: 'groceries', type: 'EXPENSE', en: 'Groceries', zh: '食品杂货' },
  { key: 'dining', type: 'EXPENSE', en: 'Dining', zh: '餐饮' },
  { key: 'coffee', type: 'EXPENSE', en: 'Coffee', zh: '咖啡' },
  { key: 'fuel', type: 'EXPENSE', en: 'Fuel', zh: '加油' },
  { key: 'transport', type: 'EXPENSE', en: 'Transport', zh: '交通' },
  { key: 'shopping', type: 'EXPENSE', en: 'Shopping', zh: '购物' },
  { key: 'household', type: 'EXPENSE', en: 'Household', zh: '家居' },
  { key: 'health', type: 'EXPENSE', en: 'Health', zh: '医疗' },
  { key: 'entertainment', type: 'EXPENSE', en: 'Entertainment', zh: '娱乐' },
  { key: 'travel', type: 'EXPENSE', en: 'Travel', zh: '旅行' },
  { key: 'rent', type: 'EXPENSE', en: 'Rent', zh: '房租' },
  { key: 'utilities', type: 'EXPENSE', en: 'Utilities', zh: '水电燃气' },
  { key: 'phone', type: 'EXPENSE', en: 'Phone and internet', zh: '通讯' },
  { key: 'subscriptions', type: 'EXPENSE', en: 'Subscriptions', zh: '订阅' },
  { key: 'insurance', type: 'EXPENSE', en: 'Insurance', zh: '保险' },
  { key: 'fees', type: 'EXPENSE', en: 'Bank fees', zh: '银行手续费' },
];

type Category = (typeof CHART)[number]['key'];

/** How a line comes about; a bank prints each kind its own way. */
type Kind = 'card' | 'bill' | 'salary' | 'interest' | 'fee' | 'savings' | 'cardPayment' | 'atm' | 'refund';

interface Line {
  kind: Kind;
  /** the merchant as the bank prints it (upper or mixed case, store number and all) */
  name: string;
  city: string;
  region: string;
  date: string;
  /** minutes after midnight */
  minute: number;
  cents: number;
}

export interface BankLine {
  date: string;
  description: string;
  /** decimal string */
  amount: string;
  type: 'debit' | 'credit';
  /** the CHART key the owner books it to */
  account: Category;
  /** who was paid or paid: the same merchant on every line, whatever the bank printed */
  merchant: string;
}

export interface UserBooks {
  id: string;
  split: Split;
  bank: string;
  language: 'en' | 'zh';
  currency: string;
  /** the account the statements are of: checking, or the card for a card issuer's user */
  statementAccount: 'checking' | 'card';
  months: { month: string; lines: BankLine[] }[];
}

// ---------------------------------------------------------------------------------------------
// Regions: chains as banks print them, cities, and the words of one-off shops.
// ---------------------------------------------------------------------------------------------

/** [printed names, category, median amount, visits a month when a regular, other category and its share] */
type Chain = readonly [readonly string[], Category, number, number, (readonly [Category, number])?];

interface Region {
  currency: string;
  cities: readonly (readonly [string, string])[];
  chains: readonly Chain[];
  /** [printed name, category, median] of the bills: rent, power, phone, subscriptions, insurance */
  bills: readonly (readonly [string, Category, number])[];
  employers: readonly string[];
  bankName: string;
  /** proper names of one-off shops: people, places, made-up words */
  names: readonly string[];
  /** what a one-off shop's name says it sells, by category */
  shopWords: Partial<Record<Category, readonly string[]>>;
  /** how a one-off shop's name is put together from a proper name and a word */
  shopName: (name: string, word: string | undefined, r: Random) => string;
}

const US_CITIES: readonly (readonly [string, string])[] = [
  ['SAN LUIS OBIS', 'CA'],
  ['OAKLAND', 'CA'],
  ['SEATTLE', 'WA'],
  ['PORTLAND', 'OR'],
  ['AUSTIN', 'TX'],
  ['CHICAGO', 'IL'],
  ['BROOKLYN', 'NY'],
  ['DENVER', 'CO'],
  ['ATLANTA', 'GA'],
  ['MADISON', 'WI'],
];

const US: Region = {
  currency: 'USD',
  cities: US_CITIES,
  chains: [
    [['TARGET 00027599', 'TARGET T-2767'], 'groceries', 45, 2, ['household', 0.25]],
    [['WAL-MART #1842', 'WALMART.COM 8009256278'], 'groceries', 60, 1.5, ['household', 0.2]],
    [['SAFEWAY #1234', 'SAFEWAY STORE 0981'], 'groceries', 55, 3],
    [['TRADER JOE S #552', "TRADER JOE'S #107"], 'groceries', 48, 2.5],
    [['WHOLEFDS MKT 10234', 'WHOLE FOODS MARKET'], 'groceries', 62, 1.5],
    [['KROGER #0421', 'KROGER FUEL #0421'], 'groceries', 70, 2],
    [['ALDI 72045'], 'groceries', 38, 2],
    [['COSTCO WHSE #0117'], 'groceries', 140, 1, ['household', 0.2]],
    [['STARBUCKS STORE 12345', 'STARBUCKS 800-782-7282'], 'coffee', 6.5, 5],
    [['PEETS COFFEE #0231'], 'coffee', 5.8, 3],
    [['DUNKIN #349612'], 'coffee', 4.9, 3],
    [['CHIPOTLE 1452'], 'dining', 13, 2],
    [['MCDONALD S F12345'], 'dining', 9, 2],
    [['PANERA BREAD #601234'], 'dining', 14, 1.5],
    [['CHICK-FIL-A #03321'], 'dining', 11, 1.5],
    [['GRUBHUB*ORDER 8888275055', 'GRUBHUB 877-585-7878'], 'dining', 28, 1.5],
    [['DOORDASH*DASHPASS', 'DD *DOORDASH 855-973-1040'], 'dining', 31, 1.5],
    [['SHELL OIL 57444212', 'SHELL SERVICE STATION'], 'fuel', 42, 2],
    [['CHEVRON 0095006'], 'fuel', 45, 2],
    [['EXXONMOBIL 47339'], 'fuel', 40, 1.5],
    [['76 - DBA T.B.D.J INC'], 'fuel', 46, 1],
    [['UBER *TRIP HELP.UBER.COM', 'UBER TRIP 8005928996'], 'transport', 18, 2],
    [['LYFT *RIDE THU 5PM'], 'transport', 16, 1.5],
    [['CLIPPER SERVICE', 'BART-CLIPPER'], 'transport', 20, 1],
    [['AMAZON MKTPLACE PMTS', 'AMZN MKTP US*2K4LL1', 'AMAZON.COM*MK1AB2CD3'], 'shopping', 35, 3, ['household', 0.3]],
    [['BEST BUY 00012345'], 'shopping', 120, 0.3],
    [['MACYS .COM', "MACY'S #0021"], 'shopping', 70, 0.4],
    [['TJ MAXX #0712'], 'shopping', 45, 0.6],
    [['THE HOME DEPOT #1052', 'HOMEDEPOT.COM'], 'household', 65, 0.8],
    [["LOWE'S #1678"], 'household', 58, 0.6],
    [['IKEA SEATTLE'], 'household', 110, 0.2],
    [['CVS/PHARMACY #02294', 'CVS/PHARM 02294'], 'health', 22, 1.2],
    [['WALGREENS #7821'], 'health', 18, 1],
    [['AMC 8291 ONLINE', 'AMC THEATRES #2045'], 'entertainment', 28, 0.5],
    [['STEAMGAMES.COM 4259522985'], 'entertainment', 20, 0.4],
    [['TICKETMASTER 800-653-8000'], 'entertainment', 90, 0.2],
    [['DELTA AIR 0062345678901', 'DELTA AIR LINES ATLANTA'], 'travel', 320, 0.15],
    [['MARRIOTT HOTELS', 'COURTYARD BY MARRIOTT'], 'travel', 180, 0.15],
    [['AIRBNB * HMQ2ABCDE'], 'travel', 240, 0.15],
  ],
  bills: [
    ['EQUITY RESIDENTIAL RENT', 'rent', 1850],
    ['PG&E WEB ONLINE', 'utilities', 95],
    ['CITY OF SLO WATER', 'utilities', 48],
    ['COMCAST CABLE COMM', 'phone', 79],
    ['VERIZON WIRELESS', 'phone', 65],
    ['NETFLIX.COM', 'subscriptions', 15.49],
    ['SPOTIFY USA', 'subscriptions', 10.99],
    ['APPLE.COM/BILL', 'subscriptions', 2.99],
    ['GEICO AUTO', 'insurance', 112],
    ['PLANET FITNESS', 'subscriptions', 24.99],
    ['AUDIBLE 8882835051', 'subscriptions', 14.95],
  ],
  employers: ['ACME CORP', 'WAVE 2 WAVE SOLU', 'INITECH INC', 'GLOBEX CORPORATION'],
  bankName: 'BANK',
  names: [
    'LUCYS',
    'REINDEERRUN',
    'SEEDS',
    'NAIMIES',
    'MARIOS',
    'GOLDEN DRAGON',
    'LA CASITA',
    'BLUE DOOR',
    'HOLLIS',
    'ZEPHYR',
    'MAPLE',
    'JUNIPER',
    'OLD TOWN',
    'SUNRISE',
    'HARBOR',
    'COPPER KETTLE',
    'NORTHSIDE',
    'ELM STREET',
    'BIG SKY',
    'LITTLE ITALY',
    'RED ROCK',
    'PACIFIC',
    'MISSION',
    'CEDAR',
    'WILDFLOWER',
    'SILVER LAKE',
    'BLACKBIRD',
    'MOONLIGHT',
    'RIVERSIDE',
    'TWIN PINES',
    'GOODWIN',
    'HARTLEY',
    'KENSINGTON',
    'BRIGHTON',
    'PARKER',
    'DELUCA',
    'NGUYEN',
    'ROSSI',
    'MURPHYS',
    'SANTOS',
    'KOWALSKI',
    'OKAFOR',
    'LINDQVIST',
    'TANAKA',
    'PATEL',
    'ABERNATHY',
    'FOXGLOVE',
    'IRONWOOD',
    'LANTERN',
    'BRAMBLE',
    'SPARROW',
    'THISTLE',
    'MERIDIAN',
    'SUMMIT',
    'BAYVIEW',
    'HIGHLAND',
    'CORNERSTONE',
    'ORCHARD',
    'WILLOW',
    'GRANITE',
  ],
  shopWords: {
    dining: [
      'CAFE',
      'GRILL',
      'PIZZA',
      'PIZZERIA',
      'TAQUERIA',
      'KITCHEN',
      'BISTRO',
      'DINER',
      'SUSHI',
      'THAI',
      'BBQ',
      'BURGER',
      'NOODLE',
      'TAVERN',
      'BREWING CO',
      'RAMEN',
      'DELI',
      'RESTAURANT',
    ],
    coffee: ['COFFEE', 'COFFEE CO', 'ESPRESSO', 'ROASTERS', 'DONUT COMPANY'],
    groceries: ['MARKET', 'FOODS', 'GROCERY', 'FARMS', 'BUTCHER', 'CAMPUS MARKET'],
    shopping: ['BOUTIQUE', 'OUTFITTERS', 'SHOES', 'BOOKS', 'GIFTS', 'ELECTRONICS', 'APPAREL', 'SPORTS'],
    household: ['HARDWARE', 'HOME GOODS', 'GARDEN CENTER', 'FURNITURE', 'NURSERY'],
    health: ['PHARMACY', 'DENTAL', 'CLINIC', 'OPTICAL', 'MEDICAL GROUP'],
    travel: ['HOTEL', 'INN', 'MOTEL', 'RESORT', 'CAR RENTAL'],
    entertainment: ['CINEMA', 'THEATRE', 'BOWLING', 'TICKETS', 'MUSEUM'],
    fuel: ['GAS', 'FUEL', 'PETROLEUM'],
    transport: ['PARKING', 'TAXI', 'TRANSIT'],
  },
  shopName: (name, word, r) =>
    word === undefined ? name : r.chance(0.5) ? `${name} ${word}` : `${word.split(' ')[0]} ${name}`,
};

const UK: Region = {
  currency: 'GBP',
  cities: [
    ['LONDON', 'GB'],
    ['MANCHESTER', 'GB'],
    ['LEEDS', 'GB'],
    ['BRISTOL', 'GB'],
    ['EDINBURGH', 'GB'],
    ['CARDIFF', 'GB'],
  ],
  chains: [
    [['TESCO STORES 3021', 'TESCO EXPRESS 5412'], 'groceries', 32, 3],
    [['SAINSBURYS S/MKTS', "SAINSBURY'S SACAT 0211"], 'groceries', 41, 2],
    [['ASDA SUPERSTORE 4312'], 'groceries', 55, 1.5],
    [['MARKS&SPENCER PLC SACA', 'M&S SIMPLY FOOD'], 'groceries', 18, 1.5, ['shopping', 0.25]],
    [['WAITROSE 1234'], 'groceries', 46, 1],
    [['LIDL GB LONDON'], 'groceries', 28, 2],
    [['PRET A MANGER', 'PRET A MANGER UK'], 'coffee', 5.2, 4],
    [['COSTA COFFEE 43021'], 'coffee', 3.9, 3],
    [['CAFFE NERO 0411'], 'coffee', 3.6, 2],
    [['NANDOS STRATFORD'], 'dining', 24, 1],
    [['DELIVEROO.CO.UK'], 'dining', 26, 2],
    [['JUST EAT.CO.UK LTD'], 'dining', 22, 1],
    [['WAGAMAMA LTD'], 'dining', 27, 0.8],
    [['GREGGS PLC'], 'dining', 4.5, 2],
    [['BP SOUTHSIDE SERVICE', 'BP CONNECT'], 'fuel', 58, 1.5],
    [['ESSO HIGH ROAD'], 'fuel', 52, 1],
    [['TFL TRAVEL CH', 'TFL.GOV.UK/CP'], 'transport', 8.4, 6],
    [['TRAINLINE.COM'], 'transport', 38, 0.7],
    [['UBER *TRIP'], 'transport', 14, 1],
    [['AMAZON.CO.UK*2K4LL1', 'AMZNMKTPLACE'], 'shopping', 24, 2.5, ['household', 0.3]],
    [['ARGOS LTD'], 'shopping', 35, 0.5],
    [['PRIMARK STORES LTD'], 'shopping', 30, 0.5],
    [['JOHN LEWIS 0092'], 'household', 85, 0.4],
    [['B&Q 1342', 'DIY.COM'], 'household', 40, 0.5],
    [['BOOTS 1123'], 'health', 12, 1.2],
    [['SUPERDRUG STORES'], 'health', 9, 0.6],
    [['ODEON CINEMAS'], 'entertainment', 24, 0.5],
    [['TICKETMASTER UK'], 'entertainment', 70, 0.2],
    [['EASYJET 000EJZ4K2'], 'travel', 140, 0.15],
    [['PREMIER INN 45211'], 'travel', 95, 0.15],
  ],
  bills: [
    ['FOXTONS LETTINGS', 'rent', 1450],
    ['OCTOPUS ENERGY', 'utilities', 110],
    ['THAMES WATER', 'utilities', 38],
    ['BT GROUP PLC', 'phone', 45],
    ['EE LIMITED', 'phone', 25],
    ['NETFLIX.COM', 'subscriptions', 10.99],
    ['SPOTIFY UK', 'subscriptions', 11.99],
    ['PUREGYM LTD', 'subscriptions', 24.99],
    ['AVIVA INSURANCE', 'insurance', 32],
    ['TV LICENCE MBP', 'subscriptions', 13.25],
  ],
  employers: ['ACME UK LTD', 'NORTHWIND TRADING', 'CROWN HOLDINGS PLC'],
  bankName: 'BARCLAYS',
  names: [
    'THE CROWN',
    'ROSE AND THISTLE',
    'HOLLOWAY',
    'ASHWORTH',
    'PEMBERTON',
    'BRAMLEY',
    'KINGSLEY',
    'WYNDHAM',
    'ALDERNEY',
    'FENWICK',
    'HARGREAVES',
    'MORLEY',
    'CLEVEDON',
    'BLACKWOOD',
    'DUNMORE',
    'ELMSWORTH',
    'GREYFRIARS',
    'THORNBURY',
    'MARLOWE',
    'QUAYSIDE',
    'ABBOTSFORD',
    'BELGRAVE',
    'CHESWICK',
    'DORSET',
    'EVERSLEY',
    'FAIRLIGHT',
    'GLENDALE',
    'HAWTHORN',
    'INGLEBY',
    'LANGDALE',
    'MAYFIELD',
    'NORTHCOTE',
    'OAKHAM',
    'PRESTWICK',
    'REDCLIFFE',
    'SOMERTON',
  ],
  shopWords: {
    dining: ['CAFE', 'KITCHEN', 'PIZZA', 'CURRY HOUSE', 'FISH BAR', 'GRILL', 'NOODLE BAR', 'BRASSERIE', 'ARMS'],
    coffee: ['COFFEE', 'ESPRESSO BAR', 'ROASTERY'],
    groceries: ['FOOD STORE', 'GROCERS', 'BUTCHERS', 'FARM SHOP', 'MINI MARKET'],
    shopping: ['BOUTIQUE', 'BOOKSHOP', 'SHOES', 'GIFTS', 'OUTDOOR'],
    household: ['HARDWARE', 'HOMESTORE', 'GARDEN CENTRE'],
    health: ['PHARMACY', 'CHEMIST', 'DENTAL', 'OPTICIANS'],
    travel: ['HOTEL', 'GUEST HOUSE', 'LODGE'],
    entertainment: ['CINEMA', 'THEATRE', 'BOWL'],
    fuel: ['SERVICE STN', 'FUELS'],
    transport: ['PARKING', 'TAXIS'],
  },
  shopName: (name, word, r) => (word === undefined ? name : r.chance(0.7) ? `${name} ${word}` : `${word} ${name}`),
};

const NL: Region = {
  currency: 'EUR',
  cities: [
    ['AMSTERDAM', 'NLD'],
    ['UTRECHT', 'NLD'],
    ['ROTTERDAM', 'NLD'],
    ['LEIDEN', 'NLD'],
    ['HAARLEM', 'NLD'],
  ],
  chains: [
    [['Albert Heijn 1234', 'AH to go 5678'], 'groceries', 34, 4],
    [['Jumbo Utrecht Centrum'], 'groceries', 42, 2],
    [['Lidl 0231'], 'groceries', 26, 1.5],
    [['HEMA Amsterdam'], 'shopping', 19, 0.8, ['household', 0.3]],
    [['Kruidvat 7321'], 'health', 14, 1.2],
    [['Etos B.V.'], 'health', 11, 0.6],
    [['NS GROEP IZ NS REIZIGERS', 'NS Reizigers'], 'transport', 22, 2],
    [['OV-chipkaart Trans Link'], 'transport', 20, 1],
    [['Thuisbezorgd.nl'], 'dining', 27, 1.5],
    [['Starbucks Centraal'], 'coffee', 5.1, 2],
    [['Bol.com'], 'shopping', 32, 1.2, ['household', 0.3]],
    [['Coolblue B.V.'], 'shopping', 110, 0.3],
    [['IKEA Delft'], 'household', 95, 0.2],
    [['Praxis Doe-het-zelf'], 'household', 38, 0.4],
    [['Shell Station A2'], 'fuel', 65, 1],
    [['Pathe Tuschinski'], 'entertainment', 14, 0.6],
    [['KLM Royal Dutch'], 'travel', 220, 0.15],
  ],
  bills: [
    ['Stichting Woonbron', 'rent', 1180],
    ['Vattenfall Klantenservice', 'utilities', 140],
    ['Waternet', 'utilities', 24],
    ['Ziggo Services BV', 'phone', 58],
    ['KPN Mobiel', 'phone', 20],
    ['Netflix International', 'subscriptions', 11.99],
    ['Spotify AB', 'subscriptions', 10.99],
    ['Zilveren Kruis Achmea', 'insurance', 139],
    ['Basic-Fit Nederland', 'subscriptions', 29.99],
  ],
  employers: ['ACME BENELUX BV', 'Stichting Kennisnet', 'Philips Nederland BV'],
  bankName: 'ING',
  names: [
    'De Kaaskamer',
    'Van Dijk',
    'Bakker',
    'De Molen',
    'Het Wapen',
    'Jansen',
    'De Gouden Leeuw',
    'Visser',
    'De Vries',
    'Meijer',
    'Het Anker',
    'De Linde',
    'Mulder',
    'Smit',
    'De Zwaan',
    'Brouwer',
    'De Hoek',
    'Van Leeuwen',
    'Het Plein',
    'De Jong',
    'Bos',
    'De Haven',
    'Vermeulen',
    'Het Hof',
    'Kok',
    'De Ster',
    'Van den Berg',
    'De Eik',
  ],
  shopWords: {
    dining: ['Eetcafe', 'Restaurant', 'Pizzeria', 'Snackbar', 'Brasserie', 'Grillroom'],
    coffee: ['Koffiebar', 'Espressobar', 'Koffie'],
    groceries: ['Slagerij', 'Bakkerij', 'Groenteboer', 'Toko', 'Supermarkt'],
    shopping: ['Boekhandel', 'Schoenen', 'Mode', 'Cadeaus'],
    household: ['Bouwmarkt', 'Tuincentrum', 'Wonen'],
    health: ['Apotheek', 'Tandarts', 'Opticien'],
    travel: ['Hotel', 'Camping'],
    entertainment: ['Bioscoop', 'Theater', 'Bowling'],
    transport: ['Parkeren', 'Taxi'],
  },
  shopName: (name, word) => (word === undefined ? name : `${word} ${name}`),
};

const AU: Region = {
  currency: 'AUD',
  cities: [
    ['SYDNEY', 'NSW'],
    ['MELBOURNE', 'VIC'],
    ['BRISBANE', 'QLD'],
    ['NEWTOWN', 'NSW'],
    ['FITZROY', 'VIC'],
  ],
  chains: [
    [['WOOLWORTHS 1234', 'WOOLWORTHS METRO 4412'], 'groceries', 58, 3],
    [['COLES 0789'], 'groceries', 52, 2],
    [['ALDI STORES - SYD'], 'groceries', 41, 1.5],
    [['IGA XPRESS NEWTOWN'], 'groceries', 22, 1],
    [['GLORIA JEANS COFFEES'], 'coffee', 5.5, 2],
    [['MENULOG PTY LTD'], 'dining', 34, 1.2],
    [['UBER *EATS'], 'dining', 38, 1.5],
    [['GUZMAN Y GOMEZ'], 'dining', 18, 1],
    [['HUNGRY JACKS 0231'], 'dining', 12, 1],
    [['AMPOL FOODARY', 'AMPOL WOOLWORTHS'], 'fuel', 78, 1.5],
    [['BP EXPRESS'], 'fuel', 70, 1],
    [['TRANSPORTFORNSW OPAL', 'OPAL TRAVEL'], 'transport', 18, 3],
    [['KMART 1062'], 'shopping', 38, 1, ['household', 0.3]],
    [['JB HI FI'], 'shopping', 95, 0.4],
    [['BUNNINGS 382000'], 'household', 62, 0.8],
    [['CHEMIST WAREHOUSE'], 'health', 24, 1],
    [['PRICELINE PHARMACY'], 'health', 19, 0.5],
    [['HOYTS CINEMAS'], 'entertainment', 25, 0.5],
    [['QANTAS AIRWAYS'], 'travel', 260, 0.15],
    [['JETSTAR'], 'travel', 140, 0.15],
  ],
  bills: [
    ['RAY WHITE RENTAL', 'rent', 2400],
    ['ORIGIN ENERGY', 'utilities', 160],
    ['SYDNEY WATER', 'utilities', 80],
    ['TELSTRA', 'phone', 85],
    ['NETFLIX.COM', 'subscriptions', 16.99],
    ['SPOTIFY P0123', 'subscriptions', 12.99],
    ['NRMA INSURANCE', 'insurance', 95],
    ['ANYTIME FITNESS', 'subscriptions', 32],
  ],
  employers: ['ACME AUSTRALIA PTY', 'BLUEGUM SYSTEMS', 'HARBOUR HEALTH'],
  bankName: 'CBA',
  names: [
    'BONDI',
    'WATTLE',
    'KOOKABURRA',
    'SOUTHERN CROSS',
    'BLUE GUM',
    'CORAL',
    'REDFERN',
    'BANKSIA',
    'ULURU',
    'MACQUARIE',
    'DARLING',
    'JACARANDA',
    'ALBANY',
    'BALLARAT',
    'CRONULLA',
    'DANDENONG',
    'ECHUCA',
    'FREMANTLE',
    'GEELONG',
    'HOBART',
    'KIAMA',
    'LORNE',
    'MANLY',
    'NOOSA',
    'ORANGE',
    'PARRAMATTA',
  ],
  shopWords: {
    dining: ['CAFE', 'THAI', 'PIZZA', 'KITCHEN', 'SUSHI', 'BURGERS', 'HOTEL BISTRO', 'DUMPLING HOUSE'],
    coffee: ['COFFEE', 'ESPRESSO', 'ROASTERS'],
    groceries: ['FRUIT MARKET', 'BUTCHERY', 'GROCER', 'BAKERY'],
    shopping: ['BOUTIQUE', 'BOOKS', 'SURF SHOP', 'GIFTS'],
    household: ['HARDWARE', 'NURSERY', 'HOMEWARES'],
    health: ['PHARMACY', 'DENTAL', 'PHYSIO'],
    travel: ['MOTEL', 'HOLIDAY PARK', 'RESORT'],
    entertainment: ['CINEMAS', 'BOWL', 'ZOO'],
    transport: ['PARKING', 'TAXIS'],
  },
  shopName: (name, word) => (word === undefined ? name : `${name} ${word}`),
};

const DE: Region = {
  currency: 'EUR',
  cities: [
    ['BERLIN', 'DE'],
    ['MUENCHEN', 'DE'],
    ['HAMBURG', 'DE'],
    ['KOELN', 'DE'],
    ['LEIPZIG', 'DE'],
  ],
  chains: [
    [['REWE Markt GmbH', 'REWE SAGT DANKE 4412'], 'groceries', 36, 3],
    [['EDEKA Center', 'EDEKA ZENTRALE'], 'groceries', 31, 2],
    [['ALDI SUED', 'ALDI GMBH'], 'groceries', 24, 2],
    [['LIDL DIENSTL 1234'], 'groceries', 22, 1.5],
    [['dm-drogerie markt', 'DM FIL.1234'], 'health', 17, 1.5, ['household', 0.3]],
    [['ROSSMANN 2141'], 'health', 12, 1],
    [['Backwerk', 'BACKWERK 0021'], 'dining', 6, 2],
    [['LIEFERANDO.DE'], 'dining', 26, 1.5],
    [['Tchibo Filiale'], 'coffee', 4.5, 1.5],
    [['ARAL Station 2941'], 'fuel', 62, 1.5],
    [['Shell Deutschland'], 'fuel', 58, 1],
    [['DB Vertrieb GmbH', 'DB BAHN A-NR 12345'], 'transport', 45, 1],
    [['BVG TICKETS'], 'transport', 12, 1.5],
    [['AMAZON EU S.A R.L.', 'AMZN Mktp DE'], 'shopping', 33, 2.5, ['household', 0.3]],
    [['ZALANDO SE'], 'shopping', 60, 0.5],
    [['MEDIAMARKT 1120'], 'shopping', 140, 0.3],
    [['OBI Markt 0412', 'BAUHAUS 1234'], 'household', 48, 0.6],
    [['IKEA Deutschland'], 'household', 90, 0.2],
    [['CINESTAR'], 'entertainment', 22, 0.5],
    [['LUFTHANSA'], 'travel', 240, 0.15],
  ],
  bills: [
    ['Deutsche Wohnen SE', 'rent', 980],
    ['Vattenfall Europe Sales', 'utilities', 85],
    ['Berliner Wasserbetriebe', 'utilities', 35],
    ['Telekom Deutschland GmbH', 'phone', 45],
    ['Vodafone GmbH', 'phone', 30],
    ['Netflix International B.V.', 'subscriptions', 12.99],
    ['Spotify AB', 'subscriptions', 10.99],
    ['HUK-COBURG', 'insurance', 58],
    ['Rundfunk ARD, ZDF, DRadio', 'subscriptions', 18.36],
    ['Urban Sports GmbH', 'subscriptions', 59],
  ],
  employers: ['ACME GmbH', 'Musterfirma AG', 'Nordlicht Software GmbH'],
  bankName: 'SPARKASSE',
  names: [
    'Zum Hirschen',
    'Mueller',
    'Schmidt',
    'Lindenhof',
    'Am Markt',
    'Becker',
    'Hoffmann',
    'Goldener Anker',
    'Wagner',
    'Schulz',
    'Rosengarten',
    'Keller',
    'Zur Post',
    'Fischer',
    'Weber',
    'Sonnenhof',
    'Am Dom',
    'Richter',
    'Klein',
    'Zum Loewen',
    'Wolf',
    'Neumann',
    'Kastanie',
    'Krause',
  ],
  shopWords: {
    dining: ['Restaurant', 'Pizzeria', 'Imbiss', 'Gasthaus', 'Doener', 'Bistro'],
    coffee: ['Cafe', 'Kaffeehaus', 'Baeckerei'],
    groceries: ['Metzgerei', 'Biomarkt', 'Feinkost', 'Getraenke'],
    shopping: ['Buchhandlung', 'Schuhhaus', 'Modehaus'],
    household: ['Baumarkt', 'Gartencenter', 'Moebel'],
    health: ['Apotheke', 'Zahnarzt', 'Optik'],
    travel: ['Hotel', 'Pension'],
    entertainment: ['Kino', 'Theater'],
    transport: ['Parkhaus', 'Taxi'],
  },
  shopName: (name, word) => (word === undefined ? name : `${word} ${name}`),
};

const FR: Region = {
  currency: 'EUR',
  cities: [
    ['PARIS', 'FR'],
    ['LYON', 'FR'],
    ['NANTES', 'FR'],
    ['LILLE', 'FR'],
    ['BORDEAUX', 'FR'],
  ],
  chains: [
    [['CARREFOUR CITY', 'CARREFOUR MARKET 2345'], 'groceries', 34, 3],
    [['MONOPRIX', 'MONOP PARIS 11'], 'groceries', 27, 2.5],
    [['FRANPRIX 5123'], 'groceries', 18, 2],
    [['PICARD SURGELES'], 'groceries', 29, 1],
    [['LECLERC DRIVE', 'E.LECLERC'], 'groceries', 75, 1],
    [['BOULANGERIE PAUL'], 'dining', 7, 3],
    [['UBER EATS'], 'dining', 28, 1.5],
    [['DELIVEROO FR'], 'dining', 25, 1],
    [['STARBUCKS FR'], 'coffee', 5.4, 1.5],
    [['TOTALENERGIES'], 'fuel', 64, 1.2],
    [['SNCF INTERNET', 'SNCF CONNECT'], 'transport', 55, 0.8],
    [['RATP NAVIGO'], 'transport', 86, 1],
    [['AMAZON PAYMENTS', 'AMAZON EU SARL'], 'shopping', 31, 2, ['household', 0.3]],
    [['FNAC DARTY'], 'shopping', 75, 0.5],
    [['DECATHLON 0143'], 'shopping', 44, 0.5],
    [['LEROY MERLIN'], 'household', 58, 0.5],
    [['PHARMACIE DU CENTRE', 'PHARMACIE LAFAYETTE'], 'health', 16, 1],
    [['UGC CINE CITE'], 'entertainment', 12, 0.6],
    [['AIR FRANCE'], 'travel', 230, 0.15],
  ],
  bills: [
    ['FONCIA LOCATION', 'rent', 1050],
    ['EDF CLIENTS PARTICULIERS', 'utilities', 72],
    ['VEOLIA EAU', 'utilities', 30],
    ['FREE MOBILE', 'phone', 19.99],
    ['ORANGE SA', 'phone', 39.99],
    ['NETFLIX.COM', 'subscriptions', 13.49],
    ['DEEZER', 'subscriptions', 11.99],
    ['MAIF ASSURANCE', 'insurance', 46],
    ['BASIC FIT FRANCE', 'subscriptions', 29.99],
  ],
  employers: ['ACME FRANCE SAS', 'SOCIETE GENERALE DEV', 'LUMIERE CONSEIL'],
  bankName: 'BNP',
  names: [
    'DU COIN',
    'CHEZ MARCEL',
    'LE PETIT',
    'SAINT GERMAIN',
    'DES AMIS',
    'DUPONT',
    'LEFEBVRE',
    'DE LA GARE',
    'MOREAU',
    'DU MARCHE',
    'LAURENT',
    'BEAULIEU',
    'BERNARD',
    'DU PORT',
    'ROUSSEAU',
    'LES HALLES',
    'MARTIN',
    'DES LILAS',
    'GIRARD',
    'DU PARC',
    'BONNET',
    'LA FONTAINE',
    'FOURNIER',
    'MONTMARTRE',
  ],
  shopWords: {
    dining: ['BRASSERIE', 'RESTAURANT', 'PIZZERIA', 'CREPERIE', 'BISTROT', 'TRAITEUR'],
    coffee: ['CAFE', 'CAFE TABAC', 'TORREFACTION'],
    groceries: ['EPICERIE', 'BOUCHERIE', 'PRIMEUR', 'FROMAGERIE'],
    shopping: ['LIBRAIRIE', 'CHAUSSURES', 'BOUTIQUE'],
    household: ['QUINCAILLERIE', 'JARDINERIE'],
    health: ['PHARMACIE', 'DENTISTE', 'OPTICIEN'],
    travel: ['HOTEL', 'CAMPING'],
    entertainment: ['CINEMA', 'THEATRE'],
    transport: ['PARKING', 'TAXI'],
  },
  shopName: (name, word) => (word === undefined ? name : `${word} ${name}`),
};

const CN: Region = {
  currency: 'CNY',
  cities: [
    ['上海', 'CN'],
    ['北京', 'CN'],
    ['杭州', 'CN'],
    ['深圳', 'CN'],
    ['成都', 'CN'],
  ],
  chains: [
    [['盒马鲜生', '盒马'], 'groceries', 120, 3],
    [['永辉超市', '永辉超市股份有限公司'], 'groceries', 95, 2],
    [['沃尔玛(中国)投资有限公司', '沃尔玛'], 'groceries', 140, 1, ['household', 0.25]],
    [['美团买菜'], 'groceries', 68, 2],
    [['全家便利店', 'FamilyMart全家'], 'groceries', 22, 2.5],
    [['瑞幸咖啡', 'luckin coffee'], 'coffee', 16, 5],
    [['星巴克', 'STARBUCKS星巴克'], 'coffee', 34, 2],
    [['美团外卖', '美团'], 'dining', 38, 5],
    [['饿了么', '饿了么外卖'], 'dining', 35, 3],
    [['海底捞', '海底捞火锅'], 'dining', 260, 0.5],
    [['肯德基', 'KFC肯德基'], 'dining', 42, 1],
    [['麦当劳'], 'dining', 36, 1],
    [['中国石化', '中国石化加油站'], 'fuel', 300, 1.5],
    [['中国石油'], 'fuel', 280, 1],
    [['滴滴出行', '滴滴快车'], 'transport', 26, 3],
    [['上海地铁', '地铁乘车码'], 'transport', 6, 8],
    [['京东商城', '京东JD.COM'], 'shopping', 180, 2, ['household', 0.3]],
    [['淘宝', '淘宝网'], 'shopping', 95, 2.5, ['household', 0.3]],
    [['拼多多'], 'shopping', 45, 1.5],
    [['宜家家居'], 'household', 350, 0.2],
    [['老百姓大药房', '益丰大药房'], 'health', 58, 0.8],
    [['万达影城', '猫眼电影'], 'entertainment', 78, 0.6],
    [['携程旅行网', '携程'], 'travel', 900, 0.2],
    [['中国国际航空'], 'travel', 1400, 0.1],
  ],
  bills: [
    ['自如网租房', 'rent', 5200],
    ['国家电网', 'utilities', 180],
    ['上海燃气', 'utilities', 85],
    ['中国移动', 'phone', 128],
    ['中国联通宽带', 'phone', 99],
    ['爱奇艺会员', 'subscriptions', 25],
    ['QQ音乐', 'subscriptions', 15],
    ['中国平安保险', 'insurance', 420],
    ['哔哩哔哩大会员', 'subscriptions', 25],
  ],
  employers: ['上海某某科技有限公司', '杭州云峰网络有限公司', '北京星河信息技术有限公司'],
  bankName: '银行',
  names: [
    '老王',
    '张记',
    '阿香',
    '福满楼',
    '小李',
    '陈氏',
    '好运来',
    '金满堂',
    '老街',
    '一品',
    '东方',
    '鸿福',
    '小城',
    '聚福',
    '锦绣',
    '明月',
    '大福',
    '春风',
    '老李',
    '刘家',
    '新世纪',
    '百味',
    '天天',
    '吉祥',
    '周记',
    '黄氏',
    '华联',
    '悦来',
  ],
  shopWords: {
    dining: ['面馆', '餐厅', '饭店', '小吃', '火锅', '烧烤', '饺子馆', '麻辣烫'],
    coffee: ['咖啡', '咖啡馆', '奶茶'],
    groceries: ['超市', '便利店', '水果店', '生鲜'],
    shopping: ['服饰', '书店', '数码', '鞋店'],
    household: ['五金店', '家居', '建材'],
    health: ['药房', '诊所', '口腔'],
    travel: ['酒店', '宾馆', '民宿'],
    entertainment: ['影院', 'KTV', '剧场'],
    transport: ['停车场', '出租车'],
  },
  shopName: (name, word) => (word === undefined ? name : `${name}${word}`),
};

// ---------------------------------------------------------------------------------------------
// Banks: how each prints a line. The first six are development, the last six held out.
// ---------------------------------------------------------------------------------------------

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const digits = (r: Random, n: number) => Array.from({ length: n }, () => String(r.int(0, 9))).join('');
const mmdd = (date: string) => `${date.slice(5, 7)}/${date.slice(8, 10)}`;
const ddmm = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;
const MONTHS_EN = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
function clock12(minute: number): string {
  const h = Math.floor(minute / 60);
  return `${pad(((h + 11) % 12) + 1)}:${pad(minute % 60)}${h < 12 ? 'a' : 'p'}`;
}
const clock24 = (minute: number, sep = ':') => `${pad(Math.floor(minute / 60))}${sep}${pad(minute % 60)}`;

interface Bank {
  id: string;
  split: Split;
  region: Region;
  language: 'en' | 'zh';
  statementAccount: 'checking' | 'card';
  /** the description of a line, new numbers each time as the bank would print them */
  print(line: Line, r: Random, card: string): string;
}

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
  print(l, r) {
    switch (l.kind) {
      case 'card':
      case 'refund':
      case 'bill': {
        const prefix = l.kind === 'bill' ? '' : r.pick(['', '', '', 'SQ *', 'TST* ', 'PAYPAL *', 'SP ']);
        return `${prefix}${l.name}${r.chance(0.3) ? ` #${digits(r, 4)}` : ''} ${l.city} ${l.region}`;
      }
      case 'cardPayment':
        return r.chance(0.5) ? 'Payment Thank You-Mobile' : 'AUTOMATIC PAYMENT - THANK YOU';
      case 'fee':
        return r.chance(0.5) ? 'PURCHASE INTEREST CHARGE' : 'LATE FEE';
      case 'interest':
        return 'CASH REWARDS STATEMENT CREDIT';
      case 'salary':
      case 'savings':
      case 'atm':
        throw new Error(`a card does not print ${l.kind}`);
    }
  },
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
  print(l, r) {
    switch (l.kind) {
      case 'card':
      case 'refund':
      case 'bill': {
        const where = r.chance(0.3)
          ? `${digits(r, 3)}-${digits(r, 3)}-${digits(r, 4)} ${l.region}`
          : `${l.city} ${l.region}`;
        return `${l.kind === 'card' && r.chance(0.3) ? 'AplPay ' : ''}${l.name}${r.chance(0.3) ? ` 000000${digits(r, 4)}` : ''} ${where}`;
      }
      case 'cardPayment':
        return r.chance(0.5) ? 'ONLINE PAYMENT - THANK YOU' : 'AUTOPAY PAYMENT - THANK YOU';
      case 'fee':
        return r.chance(0.5) ? 'INTEREST CHARGE ON PAY OVER TIME PURCHASES' : 'ANNUAL MEMBERSHIP FEE';
      case 'interest':
        return 'REWARD DOLLARS CREDIT';
      case 'salary':
      case 'savings':
      case 'atm':
        throw new Error(`a card does not print ${l.kind}`);
    }
  },
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

export const BANKS: readonly Bank[] = [
  usCreditUnion,
  usBankChecking,
  usCardIssuer,
  deSavingsBank,
  frBank,
  cnBankA,
  usAuthorizedOn,
  usChargeCard,
  ukBank,
  nlBank,
  cnBankB,
  auBank,
];

// ---------------------------------------------------------------------------------------------
// A household's eighteen months.
// ---------------------------------------------------------------------------------------------

/** Made-up words from syllables: most one-off shops have a name no other shop has, as in life. */
const SYLLABLES: Record<'latin' | 'han', readonly string[]> = {
  latin: [
    'ba',
    'ker',
    'lo',
    'mi',
    'nor',
    'ta',
    'vel',
    'zan',
    'ru',
    'des',
    'ka',
    'lin',
    'mor',
    'pe',
    'sol',
    'tri',
    'vo',
    'gra',
    'hel',
    'bri',
    'do',
    'fen',
    'ga',
    'ro',
    'sa',
    'ven',
    'wil',
    'ton',
    'mar',
    'cas',
  ],
  han: [
    '福',
    '顺',
    '兴',
    '隆',
    '和',
    '佳',
    '美',
    '乐',
    '新',
    '宏',
    '泰',
    '安',
    '康',
    '源',
    '祥',
    '瑞',
    '丰',
    '盛',
    '鑫',
    '达',
  ],
};
function madeUpName(r: Random, script: 'latin' | 'han', upper: boolean): string {
  const parts = Array.from({ length: r.int(2, 3) }, () => r.pick(SYLLABLES[script]));
  const word = parts.join('');
  if (script === 'han') return word;
  return upper ? word.toUpperCase() : word[0]!.toUpperCase() + word.slice(1);
}

/** FNV-1a: which side of the split a name falls on, the same on every machine. */
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
const sideOf = (name: string): Split => (hash(name) % 2 === 0 ? 'development' : 'held-out');

export const FIRST_MONTH = '2023-01';
export const MONTHS = 18;

function monthAt(i: number): string {
  const y = 2023 + Math.floor(i / 12);
  return `${y}-${pad((i % 12) + 1)}`;
}
const daysIn = (month: string) =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
const cents = (major: number) => Math.max(1, Math.round(major * 100));
const money = (c: number) => `${Math.floor(c / 100)}.${pad(c % 100)}`;

/** The household of one bank's user: its regular shops, bills, pay, and the one-off shops of each month. */
function household(bank: Bank, seed: string): UserBooks {
  const r = new Random(`${seed}:${bank.id}`);
  const region = bank.region;
  const side = bank.split;
  const isCard = bank.statementAccount === 'card';
  const [homeCity, homeRegion] = r.pick(region.cities);
  const card = digits(r, 4);
  const chains = region.chains.filter((c) => sideOf(c[0][0]!) === side);
  const regulars = chains.filter(() => r.chance(0.75));
  const names = region.names.filter((n) => sideOf(n) === side);
  const bills = region.bills.filter(([, category]) => category !== 'rent' || !isCard);
  const employer = r.pick(region.employers);
  const salary = r.logNormal(region.currency === 'CNY' ? 18000 : 3200, 0.2);
  const usedShopNames = new Set<string>();
  const script = region.currency === 'CNY' ? 'han' : 'latin';
  const upper = names[0] === names[0]!.toUpperCase();
  const oneOffCategories: [Category, number][] = [
    ['dining', 35],
    ['shopping', 18],
    ['coffee', 8],
    ['groceries', 8],
    ['household', 8],
    ['health', 6],
    ['entertainment', 7],
    ['travel', 5],
    ['transport', 3],
    ['fuel', 2],
  ];
  const oneOffTotal = oneOffCategories.reduce((s, [, w]) => s + w, 0);
  const pickOneOffCategory = (): Category => {
    let x = r.float() * oneOffTotal;
    for (const [c, w] of oneOffCategories) if ((x -= w) < 0) return c;
    return 'dining';
  };
  const medians: Partial<Record<Category, number>> = {
    dining: 24,
    shopping: 45,
    coffee: 6,
    groceries: 30,
    household: 40,
    health: 25,
    entertainment: 30,
    travel: 160,
    transport: 15,
    fuel: 45,
  };
  const scale = region.currency === 'CNY' ? 6 : 1;
  const months: UserBooks['months'] = [];
  for (let i = 0; i < MONTHS; i++) {
    const month = monthAt(i);
    const days = daysIn(month);
    const day = (d: number) => `${month}-${pad(Math.min(days, Math.max(1, d)))}`;
    const lines: (BankLine & { order: number })[] = [];
    const add = (
      kind: Kind,
      merchant: string,
      printed: string,
      account: Category,
      major: number,
      date: string,
      city = homeCity,
      where = homeRegion,
    ) => {
      const line: Line = {
        kind,
        name: printed,
        city,
        region: where,
        date,
        minute: r.int(7 * 60, 22 * 60),
        cents: cents(major),
      };
      const credit =
        kind === 'salary' || kind === 'interest' || kind === 'refund' || (isCard && kind === 'cardPayment');
      lines.push({
        date,
        description: bank.print(line, r, card).replace(/\s+$/u, r.chance(0.5) ? ' ' : ''),
        amount: money(line.cents),
        type: credit ? 'credit' : 'debit',
        account,
        merchant,
        order: lines.length,
      });
    };
    // pay, bills, savings, the card, cash, interest and fees
    if (!isCard) {
      add('salary', employer, employer, 'salary', salary, day(25));
      if (r.chance(0.3)) add('salary', employer, employer, 'salary', salary * 0.4, day(r.int(8, 15)));
      add('savings', 'savings', '', 'savings', r.pick([200, 250, 300, 500]) * scale, day(r.int(1, 5)));
      add('cardPayment', 'card payment', '', 'card', r.logNormal(600, 0.4) * scale, day(r.int(15, 20)));
      for (let k = r.int(0, 2); k > 0; k--)
        add('atm', 'atm', '', 'cash', r.pick([40, 60, 100, 200]) * scale, day(r.int(1, days)));
      if (r.chance(0.8)) add('interest', 'interest', '', 'interest', r.logNormal(1.5, 0.8), day(days));
    } else {
      add('cardPayment', 'card payment', '', 'checking', r.logNormal(900, 0.4), day(r.int(20, 26)));
      if (r.chance(0.3)) add('interest', 'rewards', '', 'interest', r.logNormal(12, 0.4), day(r.int(1, 10)));
    }
    if (r.chance(0.25)) add('fee', 'fee', '', 'fees', r.pick([2.5, 3, 5, 12, 15]) * scale, day(r.int(1, days)));
    for (const [printed, category, median] of bills) {
      if (category === 'utilities' && r.chance(0.15)) continue;
      const wobble = category === 'utilities' ? 0.25 : 0.01;
      add('bill', printed, printed, category, r.logNormal(median, wobble), day((hash(printed) % 27) + 1));
    }
    // the regular shops, each as often as people go there
    for (const [printedNames, category, median, perMonth, other] of regulars) {
      const visits = Math.floor(perMonth * (0.5 + r.float()) + r.float());
      for (let k = 0; k < visits; k++) {
        const account: Category = other && r.chance(other[1]) ? other[0] : category;
        const far = r.chance(0.15) ? r.pick(region.cities) : [homeCity, homeRegion];
        const printed = r.chance(0.8) ? printedNames[0]! : r.pick(printedNames);
        add('card', printedNames[0]!, printed, account, r.logNormal(median, 0.45), day(r.int(1, days)), far[0], far[1]);
        if (r.chance(0.02))
          add('refund', printedNames[0]!, printed, account, r.logNormal(median, 0.4), day(r.int(1, days)));
      }
    }
    // shops never seen before: a trip, a new place, a one-off
    for (let k = r.int(6, 12); k > 0; k--) {
      const category = pickOneOffCategory();
      const words = region.shopWords[category] ?? [];
      let printed = '';
      for (let tries = 0; tries < 20 && (printed === '' || usedShopNames.has(printed)); tries++) {
        const word = words.length > 0 && r.chance(0.55) ? r.pick(words) : undefined;
        const name = r.chance(0.3) ? r.pick(names) : madeUpName(r, script, upper);
        const second = word === undefined && r.chance(0.5) ? ` ${madeUpName(r, script, upper)}` : '';
        printed = region.shopName(`${name}${second}`, word, r);
      }
      usedShopNames.add(printed);
      const far = r.chance(0.4) ? r.pick(region.cities) : [homeCity, homeRegion];
      add(
        'card',
        printed,
        printed,
        category,
        r.logNormal((medians[category] ?? 30) * scale, 0.5),
        day(r.int(1, days)),
        far[0],
        far[1],
      );
    }
    lines.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.order - b.order));
    months.push({ month, lines: lines.map(({ order: _, ...line }) => line) });
  }
  return {
    id: bank.id,
    split: bank.split,
    bank: bank.id,
    language: bank.language,
    currency: region.currency,
    statementAccount: bank.statementAccount,
    months,
  };
}

/** Every bank's household, development banks first. */
export function households(seed = 'suggestions-1'): UserBooks[] {
  return BANKS.map((bank) => household(bank, seed));
}
