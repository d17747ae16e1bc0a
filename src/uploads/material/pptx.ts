/**
 * PPTX reader: the text of each slide, in the presentation's slide order (from
 * ppt/presentation.xml's sldIdLst and its relationships, not the zip's file order),
 * citation "slide N"; a table's rows are lines written `| cell | cell |`. Speaker notes are appended to their slide's passage when present, the first line
 * labelled "Speaker notes: ".
 */
import type JSZip from 'jszip';
import { loadJsZip } from '../../platform/lazy.js';
import { XMLParser } from 'fast-xml-parser';
import { UnusableMaterial } from '../errors.js';
import type { Passage } from '../../core/generation/passage.js';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, isArray: (_name, _path, _leaf, isAttribute) => !isAttribute });

type Node = Record<string, unknown>;

/** Collects the text runs (<a:t>) of a DrawingML tree, one line per paragraph (<a:p>) and per table row (<a:tr>, `| cell | cell |`). */
function paragraphsOf(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const n of node) paragraphsOf(n, out);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Node)) {
    if (key === 'tbl') {
      // a table (<a:tbl>) as rows written `| cell | cell |`, the form the generator reads tables in (core/generation/engine/table-items.ts)
      for (const tbl of value as Node[]) {
        for (const tr of (tbl.tr as Node[] | undefined) ?? []) {
          const row = ((tr.tc as Node[] | undefined) ?? []).map((tc) => {
            const lines: string[] = [];
            paragraphsOf(tc, lines);
            return lines.join(' ').replace(/\|/g, '/');
          });
          if (row.some(Boolean)) out.push(`| ${row.join(' | ')} |`);
        }
      }
    } else if (key === 'p') {
      for (const p of value as unknown[]) {
        const runs: string[] = [];
        collectRuns(p, runs);
        const line = runs.join('').replace(/\s+/g, ' ').trim();
        if (line) out.push(line);
      }
    } else if (!key.startsWith('@')) paragraphsOf(value, out);
  }
}

function collectRuns(node: unknown, runs: string[]): void {
  if (Array.isArray(node)) return node.forEach((n) => collectRuns(n, runs));
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Node)) {
    if (key === 't') for (const t of value as unknown[]) runs.push(typeof t === 'object' && t ? String((t as Node)['#text'] ?? '') : String(t));
    else if (key === 'br') runs.push(' ');
    else if (!key.startsWith('@')) collectRuns(value, runs);
  }
}

/** Slide part paths in presentation order. */
async function slideOrder(zip: JSZip): Promise<string[]> {
  const pres = parser.parse((await zip.file('ppt/presentation.xml')?.async('string')) ?? '') as Node;
  const rels = parser.parse((await zip.file('ppt/_rels/presentation.xml.rels')?.async('string')) ?? '') as Node;
  const targets = new Map<string, string>();
  const relList = ((rels.Relationships as Node[] | undefined)?.[0]?.Relationship as Node[] | undefined) ?? [];
  for (const r of relList) targets.set(String(r['@Id']), String(r['@Target']));
  const ids = (((pres.presentation as Node[] | undefined)?.[0]?.sldIdLst as Node[] | undefined)?.[0]?.sldId as Node[] | undefined) ?? [];
  const ordered = ids.map((s) => targets.get(String(s['@id'])) ?? '').filter(Boolean).map((t) => `ppt/${t.replace(/^\.?\//, '').replace(/^\/?ppt\//, '')}`);
  if (ordered.length) return ordered;
  // No list: fall back to numeric file order (slide1, slide2, …).
  return Object.keys(zip.files).filter((f) => /^ppt\/slides\/slide\d+\.xml$/.test(f)).sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]));
}

/**
 * PPTX → one passage per slide with text ("slide N", N = position in the show).
 * @throws UnusableMaterial when the file is not a readable presentation.
 */
export async function readPptx(bytes: Uint8Array): Promise<Passage[]> {
  try {
    const zip = await (await loadJsZip()).loadAsync(bytes);
    const out: Passage[] = [];
    const slides = await slideOrder(zip);
    for (const [i, path] of slides.entries()) {
      const lines: string[] = [];
      paragraphsOf(parser.parse((await zip.file(path)?.async('string')) ?? ''), lines);
      const notesPath = await notesFor(zip, path);
      if (notesPath) {
        // labelled, so that nothing reads the notes as the slide's last line continued (passage.ts, linesToParagraphs)
        const notes: string[] = [];
        paragraphsOf(parser.parse((await zip.file(notesPath)?.async('string')) ?? ''), notes);
        const said = notes.filter((l) => !/^\d+$/.test(l));
        if (said.length) lines.push(`Speaker notes: ${said[0]}`, ...said.slice(1));
      }
      const text = lines.filter((l) => !/^\d+$/.test(l)).join('\n');
      if (text.trim()) out.push({ text, citation: `slide ${i + 1}` });
    }
    return out;
  } catch (err) {
    throw new UnusableMaterial(`The PowerPoint file could not be read (${(err as Error).message}).`);
  }
}

/** The notes part of a slide, from the slide's relationships, if any. */
async function notesFor(zip: JSZip, slidePath: string): Promise<string | null> {
  const relPath = slidePath.replace(/slides\/(slide\d+\.xml)$/, 'slides/_rels/$1.rels');
  const xml = await zip.file(relPath)?.async('string');
  if (!xml) return null;
  const m = /Target="\.\.\/notesSlides\/(notesSlide\d+\.xml)"/.exec(xml);
  return m ? `ppt/notesSlides/${m[1]}` : null;
}
