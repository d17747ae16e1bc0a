/**
 * The XML under the QTI 3.0 reader (docs/decisions.md, "QTI 3.0 content packages"):
 * fast-xml-parser in document order (XHTML is mixed content), read into a small element
 * tree. A DOCTYPE anywhere is refused before parsing, as in the Moodle XML reader: QTI
 * files never need one, and it is the way in for external entities (XXE) and
 * entity-expansion bombs (issue 22).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { BankFormatError } from '../types.js';

/** An element: its local name (namespace prefix dropped), attributes and children in order. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
/** A child: an element or a run of text (entities decoded). */
export type XmlNode = XmlElement | string;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
});

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

type Ordered = Record<string, unknown>;

function toNodes(list: Ordered[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const entry of list) {
    const key = Object.keys(entry).find((k) => k !== ':@');
    if (key === undefined || key.startsWith('?') || key === '#comment') continue;
    if (key === '#text') {
      out.push(String(entry[key]));
      continue;
    }
    const raw = (entry[':@'] ?? {}) as Record<string, unknown>;
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) attrs[localName(k.replace(/^@_/, ''))] = String(v);
    out.push({ name: localName(key), attrs, children: toNodes((entry[key] as Ordered[] | undefined) ?? []) });
  }
  return out;
}

/**
 * Parses one XML file of a QTI package into its root element.
 * @param file the file's name in the package, for messages
 * @throws BankFormatError when the XML has a DOCTYPE, is malformed or has no root element
 */
export function parseXml(xml: string, file: string): XmlElement {
  const text = xml.replace(/^\uFEFF/, '');
  const doctype = text.search(/<!DOCTYPE/i);
  if (doctype >= 0) {
    throw new BankFormatError(`${file} has a DOCTYPE (entity declarations), which QTI 3.0 files never need and HallCBT does not read. Remove the <!DOCTYPE …> line, or export the package again.`, text.slice(0, doctype).split('\n').length);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new BankFormatError(`${file}: the XML is malformed: ${valid.err.msg} (line ${valid.err.line}).`, valid.err.line);
  let nodes: XmlNode[];
  try {
    nodes = toNodes(parser.parse(text) as Ordered[]);
  } catch (e) {
    throw new BankFormatError(`${file}: the XML could not be read: ${(e as Error).message}.`);
  }
  const root = nodes.find((n): n is XmlElement => typeof n !== 'string');
  if (!root) throw new BankFormatError(`${file} has no root element.`);
  return root;
}

/** True for an element (not text). */
export const isElement = (n: XmlNode | undefined): n is XmlElement => typeof n === 'object' && n !== null;

/** The element children of `e` named `name` (any name when omitted). */
export function childElements(e: XmlElement, name?: string): XmlElement[] {
  return e.children.filter((c): c is XmlElement => isElement(c) && (name === undefined || c.name === name));
}

/** The first child element named `name`. */
export const child = (e: XmlElement, name: string): XmlElement | undefined => childElements(e, name)[0];

/** Every descendant element (depth first, document order) for which `test` holds; does not look inside a match. */
export function findElements(e: XmlElement, test: (x: XmlElement) => boolean): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of childElements(e)) {
    if (test(c)) out.push(c);
    else out.push(...findElements(c, test));
  }
  return out;
}

/** The text content of a node (all descendant text, as written). */
export function textContent(n: XmlNode): string {
  return typeof n === 'string' ? n : n.children.map(textContent).join('');
}

/** Escapes text for an XML text node or attribute value. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/** True when `xml` is a well-formed fragment (checked inside a wrapper element). */
export function wellFormed(fragment: string): boolean {
  return XMLValidator.validate(`<x>${fragment}</x>`) === true;
}
