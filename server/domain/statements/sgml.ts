import { fail } from './fail.ts';
import { LIMITS } from './limits.ts';
import { LineIndex } from './text.ts';
import { decodeEntities, newNode } from './xnode.ts';
import type { XNode } from './xnode.ts';

/** OFX aggregates (elements that contain elements). Everything else is a leaf holding a value. */
const AGGREGATES = new Set([
  'OFX',
  'SIGNONMSGSRSV1',
  'SIGNONMSGSRQV1',
  'SONRS',
  'SONRQ',
  'STATUS',
  'FI',
  'BANKMSGSRSV1',
  'BANKMSGSRQV1',
  'STMTTRNRS',
  'STMTTRNRQ',
  'STMTRS',
  'STMTRQ',
  'STMTENDRS',
  'BANKACCTFROM',
  'BANKACCTTO',
  'BANKACCTINFO',
  'CCACCTFROM',
  'CCACCTTO',
  'CCACCTINFO',
  'BANKTRANLIST',
  'STMTTRN',
  'PAYEE',
  'LEDGERBAL',
  'AVAILBAL',
  'BALLIST',
  'BAL',
  'CURRENCY',
  'ORIGCURRENCY',
  'CREDITCARDMSGSRSV1',
  'CREDITCARDMSGSRQV1',
  'CCSTMTTRNRS',
  'CCSTMTTRNRQ',
  'CCSTMTRS',
  'CCSTMTRQ',
  'CCSTMTENDRS',
  'INVSTMTMSGSRSV1',
  'INVSTMTTRNRS',
  'INVSTMTRS',
  'INVACCTFROM',
  'INVTRANLIST',
  'INVPOSLIST',
  'INVBAL',
  'INVOOLIST',
  'SECLISTMSGSRSV1',
  'SECLIST',
  'EXTBANKACCTTO',
  'IMAGEDATA',
  'MSGSETLIST',
  'SIGNUPMSGSRSV1',
  'ACCTINFORS',
  'ACCTINFO',
]);
/** Leaves that real files leave empty without an end tag (`<NAME>` directly followed by `<MEMO>…`). */
const KNOWN_LEAVES = new Set([
  'NAME',
  'MEMO',
  'FITID',
  'CHECKNUM',
  'REFNUM',
  'SIC',
  'PAYEEID',
  'SRVRTID',
  'CORRECTFITID',
  'CORRECTACTION',
  'TRNTYPE',
  'DTPOSTED',
  'DTUSER',
  'DTAVAIL',
  'TRNAMT',
  'BANKID',
  'BRANCHID',
  'ACCTID',
  'ACCTTYPE',
  'ACCTKEY',
  'CURDEF',
  'DTSTART',
  'DTEND',
  'BALAMT',
  'DTASOF',
  'CODE',
  'SEVERITY',
  'MESSAGE',
  'DTSERVER',
  'LANGUAGE',
  'ORG',
  'FID',
  'TRNUID',
  'CLTCOOKIE',
  'MKTGINFO',
  'CURRATE',
  'CURSYM',
  'USERKEY',
  'DTPROFUP',
  'DTACCTUP',
  'INTU.BID',
  'INTU.USERID',
]);

/**
 * Where an aggregate belongs. Opening one of these while its parent is open further up closes
 * everything opened since (a `<CCACCTFROM>` whose end tag comes late, a `<STMTTRN>` never closed
 * before the next), as SGML's content model and ofxparse's tag soup reader both do.
 */
const PARENTS = new Map<string, readonly string[]>([
  ['STMTTRN', ['BANKTRANLIST']],
  ...['BANKTRANLIST', 'LEDGERBAL', 'AVAILBAL', 'BANKACCTFROM', 'CCACCTFROM', 'CURDEF', 'BALLIST', 'MKTGINFO'].map(
    (name) => [name, ['STMTRS', 'CCSTMTRS']] as [string, readonly string[]],
  ),
  ['STMTRS', ['STMTTRNRS']],
  ['CCSTMTRS', ['CCSTMTTRNRS']],
  ['STMTTRNRS', ['BANKMSGSRSV1']],
  ['CCSTMTTRNRS', ['CREDITCARDMSGSRSV1']],
  ...['SIGNONMSGSRSV1', 'BANKMSGSRSV1', 'CREDITCARDMSGSRSV1', 'INVSTMTMSGSRSV1'].map(
    (name) => [name, ['OFX']] as [string, readonly string[]],
  ),
]);

/** What the SGML reader found: the tree, and a note when the file ends before `</OFX>`. */
export interface SgmlTree {
  root: XNode;
  /** 1-based line of the last line when `<OFX>` is still open at the end of the file, else null. */
  unclosedAtEnd: number | null;
}

/**
 * Reads an OFX body as banks write it (no library reads SGML with unclosed leaf tags). Rules:
 * - a leaf may omit its end tag: `<TRNAMT>-5.50` ends where the next tag starts, and so does an
 *   empty known leaf (`<NAME>` followed by `<MEMO>…`);
 * - an end tag closes the nearest open element of that name and every element opened inside it:
 *   an aggregate whose own end tag is missing (Nubank omits `</BANKTRANLIST>`) keeps its children,
 *   an unknown empty element hands the elements it swallowed back to its parent;
 * - an aggregate opened while its parent (PARENTS) is open further up closes what lies between;
 * - an end tag with no open element of that name is ignored, and elements still open at the end
 *   of the file are closed there (both as ofxparse reads them);
 * - text outside any element is refused with its line number.
 * Element names are upper-cased; `<?…?>` instructions and comments are skipped; CDATA is text.
 */
export function parseSgml(text: string): SgmlTree {
  const lines = new LineIndex(text);
  const root = newNode('#document', 1);
  const stack: XNode[] = [root];
  const top = (): XNode => stack[stack.length - 1] as XNode;

  const addText = (value: string, at: number): void => {
    const t = value.trim();
    if (t === '') return;
    if (stack.length === 1) {
      const lead = value.length - value.trimStart().length;
      fail(`line ${lines.lineOf(at + lead)}: text ${JSON.stringify(t.slice(0, 30))} outside any element`);
    }
    top().text += t;
  };

  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt === -1) {
      addText(decodeEntities(text.slice(i)), i);
      break;
    }
    if (lt > i) addText(decodeEntities(text.slice(i, lt)), i);
    if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end === -1) fail(`line ${lines.lineOf(lt)}: CDATA section is not closed`);
      addText(text.slice(lt + 9, end), lt);
      i = end + 3;
      continue;
    }
    const special = text.startsWith('<!--', lt) ? '-->' : text.startsWith('<?', lt) ? '?>' : null;
    if (special !== null) {
      const end = text.indexOf(special, lt + 2);
      if (end === -1)
        fail(`line ${lines.lineOf(lt)}: ${special === '-->' ? 'comment' : 'processing instruction'} is not closed`);
      i = end + special.length;
      continue;
    }
    const gt = text.indexOf('>', lt + 1);
    const nextLt = text.indexOf('<', lt + 1);
    if (gt === -1 || (nextLt !== -1 && nextLt < gt)) fail(`line ${lines.lineOf(lt)}: tag is not terminated by '>'`);
    const inner = text.slice(lt + 1, gt);
    i = gt + 1;
    if (inner.startsWith('!')) continue;
    const line = lines.lineOf(lt);
    if (inner.startsWith('/')) {
      closeElement(inner.slice(1).trim().toUpperCase(), stack);
      continue;
    }
    const name = /^[A-Za-z_][\w.:-]*/.exec(inner)?.[0];
    if (name === undefined) fail(`line ${line}: malformed tag <${inner.slice(0, 30)}>`);
    const open = top();
    const leaf =
      open.children.length === 0 && !AGGREGATES.has(open.name) && (open.text !== '' || KNOWN_LEAVES.has(open.name));
    if (open !== root && leaf) stack.pop();
    const upper = name.toUpperCase();
    const parents = PARENTS.get(upper);
    if (parents !== undefined) {
      const at = lastIndexWhere(stack, (node) => parents.includes(node.name));
      if (at >= 1) popAbove(stack, at);
    }
    const node = newNode(upper, line);
    top().children.push(node);
    if (inner.trimEnd().endsWith('/')) continue;
    stack.push(node);
    if (stack.length > LIMITS.maxDepth) fail(`line ${line}: elements are nested more than ${LIMITS.maxDepth} deep`);
  }

  const ofxOpen = stack.some((node) => node.name === 'OFX');
  return { root, unclosedAtEnd: ofxOpen ? lines.lineOf(Math.max(0, text.trimEnd().length - 1)) : null };
}

function lastIndexWhere(stack: XNode[], test: (node: XNode) => boolean): number {
  for (let at = stack.length - 1; at >= 0; at -= 1) if (test(stack[at] as XNode)) return at;
  return -1;
}

/** Closes every element above stack[at]; an unknown element hands what it swallowed back to its parent. */
function popAbove(stack: XNode[], at: number): void {
  while (stack.length - 1 > at) {
    const unclosed = stack.pop() as XNode;
    if (unclosed.children.length > 0 && !AGGREGATES.has(unclosed.name)) {
      const parent = stack[stack.length - 1] as XNode;
      for (const swallowed of unclosed.children) parent.children.push(swallowed);
      unclosed.children = [];
    }
  }
}

function closeElement(name: string, stack: XNode[]): void {
  const at = lastIndexWhere(stack, (node) => node.name === name);
  if (at < 1) return;
  popAbove(stack, at);
  stack.pop();
}
