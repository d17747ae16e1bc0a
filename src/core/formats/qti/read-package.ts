/**
 * QTI 3.0 content packages and files → a ParseResult (docs/decisions.md, "QTI 3.0 content
 * packages"). A package's `imsmanifest.xml` lists its resources: the assessment test
 * (`imsqti_test_xmlv3p0`) gives the items in order, each `qti-assessment-section`'s title
 * becoming the `section` of its items (a section with `visible="false"` names none); with no
 * test, every item resource (`imsqti_item_xmlv3p0`) is read in manifest order. One item
 * file can also be sent alone. Items that cannot be imported are skipped with a reason
 * naming them (read-item.ts). Pure: the caller unzips and hands over the XML files by path.
 */
import { ResultBuilder } from '../checks.js';
import { BankFormatError, type ParseResult } from '../types.js';
import { readItem } from './read-item.js';
import { child, childElements, parseXml, type XmlElement } from './xml.js';

const MANIFEST = 'imsmanifest.xml';

/** `href` resolved against the directory of `base` (a path in the package), or null when it leaves the package. */
export function resolvePath(base: string, href: string): string | null {
  const clean = decodeURIComponent(href.split('#')[0]!.split('?')[0]!);
  if (/^[a-z][a-z0-9+.-]*:/i.test(clean) || clean.startsWith('/')) return null;
  const parts = base.split('/').slice(0, -1);
  for (const p of clean.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(p);
  }
  return parts.join('/');
}

/** An item reference in test order, with the section it sits in. */
interface ItemRef {
  path: string | null;
  href: string;
  section?: string;
}

function walkSection(s: XmlElement, testPath: string, inherited: string | undefined, out: ItemRef[], notes: string[]): void {
  const title = s.attrs.visible === 'false' ? inherited : (s.attrs.title ?? '').trim() || inherited;
  for (const c of childElements(s)) {
    if (c.name === 'qti-assessment-section') walkSection(c, testPath, title, out, notes);
    else if (c.name === 'qti-assessment-item-ref') out.push({ path: resolvePath(testPath, c.attrs.href ?? ''), href: c.attrs.href ?? '', section: title });
    else if (c.name === 'qti-assessment-section-ref') notes.push(`Section reference ${c.attrs.href ?? ''} in ${testPath} was not followed (sections must be written inside the test).`);
  }
}

/** The item references of an assessment test, in order. */
function testItems(test: XmlElement, testPath: string, notes: string[]): ItemRef[] {
  const out: ItemRef[] = [];
  for (const part of childElements(test, 'qti-test-part')) for (const s of childElements(part, 'qti-assessment-section')) walkSection(s, testPath, undefined, out, notes);
  return out;
}

function readRefs(refs: ItemRef[], files: Map<string, string>, out: ResultBuilder): void {
  for (const ref of refs) {
    const xml = ref.path === null ? undefined : files.get(ref.path);
    if (xml === undefined) {
      out.skip(`item file ${ref.href} is not in the package`);
      continue;
    }
    const r = readItem(parseXml(xml, ref.path!), ref.path!, ref.section);
    if (typeof r === 'string') out.skip(r);
    else out.add(r.question, undefined, r.warnings);
  }
}

/**
 * Reads a content package.
 * @param files the package's XML files by path ("imsmanifest.xml", "items/q1.xml", …); when the
 *   manifest is not at the top but in one folder, that folder is the package
 * @throws BankFormatError when there is no manifest, a file has a DOCTYPE or is malformed, or the package holds no QTI 3.0 test or item
 */
export function parseQtiPackage(files: Map<string, string>): ParseResult {
  // a package zipped with its folder ("mock/imsmanifest.xml", …) is read from inside that folder
  const nested = [...files.keys()].filter((p) => p.endsWith(`/${MANIFEST}`));
  if (!files.has(MANIFEST) && nested.length === 1) {
    const prefix = nested[0]!.slice(0, -MANIFEST.length);
    files = new Map([...files].filter(([p]) => p.startsWith(prefix)).map(([p, t]) => [p.slice(prefix.length), t]));
  }
  const manifestXml = files.get(MANIFEST);
  if (manifestXml === undefined) throw new BankFormatError('The zip has no imsmanifest.xml at its top level: it is not a QTI content package.');
  const manifest = parseXml(manifestXml, MANIFEST);
  const resources = childElements(child(manifest, 'resources') ?? manifest, 'resource');
  const ofType = (prefix: string) => resources.filter((r) => (r.attrs.type ?? '').toLowerCase().startsWith(prefix));
  const tests = ofType('imsqti_test_xmlv3p0');
  const items = ofType('imsqti_item_xmlv3p0');
  if (!tests.length && !items.length) {
    const older = resources.some((r) => /^imsqti_(item|test)_xmlv2/i.test(r.attrs.type ?? ''));
    throw new BankFormatError(older ? 'This is a QTI 2.x package; HallCBT reads QTI 3.0. Export the questions as QTI 3.0.' : 'The manifest lists no QTI 3.0 test or item (resource types imsqti_test_xmlv3p0 / imsqti_item_xmlv3p0).');
  }
  const out = new ResultBuilder();
  const notes: string[] = [];
  let refs: ItemRef[];
  if (tests.length) {
    const testPath = resolvePath(MANIFEST, tests[0]!.attrs.href ?? '');
    const testXml = testPath === null ? undefined : files.get(testPath);
    if (testXml === undefined) throw new BankFormatError(`The assessment test ${tests[0]!.attrs.href ?? ''} named in imsmanifest.xml is not in the package.`);
    const test = parseXml(testXml, testPath!);
    if (test.name !== 'qti-assessment-test') throw new BankFormatError(`${testPath} is not a QTI 3.0 assessment test (its root is <${test.name}>).`);
    refs = testItems(test, testPath!, notes);
    if (tests.length > 1) notes.push(`The package holds ${tests.length} assessment tests; only the first (${testPath}) was read.`);
  } else {
    refs = items.map((r) => ({ path: resolvePath(MANIFEST, r.attrs.href ?? ''), href: r.attrs.href ?? '' }));
  }
  readRefs(refs, files, out);
  for (const n of notes) out.note(n);
  return out.result;
}

/**
 * Reads one QTI XML file sent on its own: an item. A test or a manifest refers to other
 * files, so it needs the whole package.
 * @throws BankFormatError (DOCTYPE, malformed, a test or manifest without its package)
 */
export function parseQtiXml(text: string): ParseResult {
  const root = parseXml(text, 'the XML');
  if (root.name === 'qti-assessment-test' || root.name === 'manifest') {
    throw new BankFormatError(`A QTI ${root.name === 'manifest' ? 'manifest' : 'assessment test'} refers to its items by file: upload the content package (the .zip with imsmanifest.xml and the item files).`);
  }
  const out = new ResultBuilder();
  const r = readItem(root, 'the XML');
  if (typeof r === 'string') out.skip(r, 1);
  else out.add(r.question, 1, r.warnings);
  return out.result;
}
