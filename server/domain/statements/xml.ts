import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { fail } from './fail.ts';
import { LIMITS } from './limits.ts';
import { LineIndex } from './text.ts';
import { decodeEntities, newNode } from './xnode.ts';
import type { XNode } from './xnode.ts';

/**
 * Entity handling is off in the parser: a DOCTYPE (the only place entities can be declared) is
 * refused before parsing, and the predefined entities are resolved by decodeEntities afterwards,
 * so neither external nor recursive ("billion laughs") entities can ever be expanded.
 */
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  cdataPropName: '#cdata',
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  captureMetaData: true,
  maxNestedTags: LIMITS.maxDepth,
});
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** Refuses DOCTYPE and ENTITY declarations, naming the line. */
export function refuseDoctype(text: string): void {
  const at = text.search(/<!DOCTYPE|<!ENTITY/i);
  if (at !== -1) {
    fail(
      `line ${new LineIndex(text).lineOf(at)}: <!DOCTYPE> and <!ENTITY> declarations are not allowed in a statement file`,
    );
  }
}

/**
 * Refuses a file with more than `limit` elements named by `tag` (a statement's entries), counted in
 * the text before any tree is built: a file of a million empty entries costs a scan, not a tree of
 * a million nodes. The message is the one the statement's reader gives at the first extra entry.
 */
export function refuseTooManyEntries(text: string, tag: RegExp, limit: number, what: string): void {
  let count = 0;
  for (const match of text.matchAll(tag)) {
    if (++count > limit) fail(`line ${new LineIndex(text).lineOf(match.index)}: more than ${limit} ${what}`);
  }
}

/** Whether `text` is well-formed XML (no exception for malformed input). */
export function isWellFormedXml(text: string): boolean {
  try {
    return XMLValidator.validate(text) === true;
  } catch {
    return false;
  }
}

/**
 * Parses well-formed XML into an XNode tree under a '#document' root. Malformed XML is refused
 * with the line of the first error (unless the caller has `validated` it). `upperCase` upper-cases
 * element names (OFX is case-insensitive).
 */
export function parseXml(text: string, upperCase = false, validated = false): XNode {
  refuseDoctype(text);
  let verdict: ReturnType<typeof XMLValidator.validate> | true = true;
  try {
    if (!validated) verdict = XMLValidator.validate(text);
  } catch (error) {
    fail(`XML could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (verdict !== true) fail(`line ${verdict.err.line}: XML is not well-formed: ${verdict.err.msg}`);
  let items: unknown;
  try {
    items = parser.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/nested/i.test(message)) fail(`<${firstElement(text)}>: elements are nested more than ${LIMITS.maxDepth} deep`);
    fail(`XML could not be read: ${message}`);
  }
  const root = newNode('#document', 1);
  const lines = new LineIndex(text);
  appendItems(root, items, lines, upperCase, 0);
  return root;
}

function appendItems(parent: XNode, items: unknown, lines: LineIndex, upperCase: boolean, depth: number): void {
  if (!Array.isArray(items)) return;
  if (depth > LIMITS.maxDepth) fail(`line ${parent.line}: elements are nested more than ${LIMITS.maxDepth} deep`);
  for (const item of items as Record<string | symbol, unknown>[]) {
    for (const key of Object.keys(item)) {
      const value = item[key];
      if (key === ':@') continue;
      if (key === '#text') {
        parent.text += decodeEntities(String(value));
      } else if (key === '#cdata') {
        parent.text += cdataText(value);
      } else if (!key.startsWith('?') && !key.startsWith('!')) {
        const meta = item[META] as { startIndex?: number } | undefined;
        const node = newNode(upperCase ? key.toUpperCase() : key, lines.lineOf(meta?.startIndex ?? 0));
        const attrs = item[':@'];
        if (attrs && typeof attrs === 'object') {
          for (const [name, attr] of Object.entries(attrs as Record<string, unknown>))
            node.attrs[name] = decodeEntities(String(attr));
        }
        appendItems(node, value, lines, upperCase, depth + 1);
        node.text = node.text.trim();
        parent.children.push(node);
      }
    }
  }
}

function firstElement(text: string): string {
  return /<([A-Za-z_][\w.:-]*)/.exec(text)?.[1] ?? 'Document';
}

function cdataText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value.map((part) => String((part as Record<string, unknown>)['#text'] ?? '')).join('');
}
