/** A minimal element tree shared by the XML reader (OFX 2, CAMT) and the OFX 1 SGML reader. */
export interface XNode {
  /** Element name without namespace prefix. */
  name: string;
  attrs: Record<string, string>;
  /** Direct text content (entities and CDATA resolved), trimmed. */
  text: string;
  children: XNode[];
  /** 1-based line of the start tag. */
  line: number;
}

export function newNode(name: string, line: number): XNode {
  return { name, attrs: {}, text: '', children: [], line };
}

export function child(node: XNode | undefined, name: string): XNode | undefined {
  return node?.children.find((c) => c.name === name);
}

export function childrenNamed(node: XNode | undefined, name: string): XNode[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

/** Follows child names separated by '/', e.g. 'BookgDt/Dt'. */
export function path(node: XNode | undefined, route: string): XNode | undefined {
  let current = node;
  for (const name of route.split('/')) current = child(current, name);
  return current;
}

/** Trimmed text at `route`, or null when the element is missing. */
export function textAt(node: XNode | undefined, route: string): string | null {
  const found = path(node, route);
  return found ? found.text : null;
}

/** Every element called `name` (or any of `name`) below `node`, in document order, without looking inside matches. */
export function findAll(node: XNode, name: string | readonly string[]): XNode[] {
  const names = new Set(typeof name === 'string' ? [name] : name);
  const found: XNode[] = [];
  const stack: XNode[] = [...node.children].reverse();
  while (stack.length > 0) {
    const current = stack.pop() as XNode;
    if (names.has(current.name)) found.push(current);
    else for (let i = current.children.length - 1; i >= 0; i -= 1) stack.push(current.children[i] as XNode);
  }
  return found;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Resolves the predefined XML entities and numeric character references; leaves anything else as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z]{2,6});/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref] ?? whole;
  });
}
