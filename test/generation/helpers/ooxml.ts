/**
 * Builds small Office Open XML files for tests with jszip: a DOCX (one w:p per
 * paragraph, optional heading style) and a PPTX (one slide per text list, title plus
 * body shapes). They hold the parts the readers and Word/PowerPoint need to identify
 * the package ([Content_Types].xml, relationships, document / presentation parts),
 * without themes or masters.
 */
import JSZip from 'jszip';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';

async function zip(files: Record<string, string>): Promise<Uint8Array> {
  const z = new JSZip();
  for (const [path, body] of Object.entries(files)) z.file(path, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);
  return z.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** A Markdown table's lines (`| a | b |`, each on its own line) as rows of cells, its rule row (`|---|---|`) dropped; null when `text` is not all table lines. */
export function tableRows(text: string): string[][] | null {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  if (!lines.length || !lines.every((l) => /^\|.*\|$/.test(l))) return null;
  return lines.map((l) => l.slice(1, -1).split('|').map((c) => c.trim())).filter((r) => !r.every((c) => /^:?-{2,}:?$/.test(c)));
}

/**
 * DOCX whose body has one paragraph per string (split at line breaks: none); a string whose
 * lines are all Markdown table lines becomes a Word table (w:tbl), as a teacher's document has.
 */
export function makeDocx(paragraphs: string[]): Promise<Uint8Array> {
  const para = (t: string) => `<w:p><w:r><w:t xml:space="preserve">${esc(t)}</w:t></w:r></w:p>`;
  const table = (rows: string[][]) => `<w:tbl><w:tblPr/>${rows.map((r) => `<w:tr>${r.map((c) => `<w:tc>${para(c)}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;
  const body = paragraphs.map((p) => { const rows = tableRows(p); return rows ? table(rows) : para(p); }).join('');
  return zip({
    '[Content_Types].xml': `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    '_rels/.rels': `<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/document.xml': `<w:document xmlns:w="${W}"><w:body>${body}<w:sectPr/></w:body></w:document>`,
  });
}

function slideXml(lines: string[]): string {
  const [title, ...body] = lines;
  const shape = (id: number, name: string, paras: string[]) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${paras
      .map((t) => `<a:p><a:r><a:rPr lang="en-GB"/><a:t>${esc(t)}</a:t></a:r></a:p>`)
      .join('')}</p:txBody></p:sp>`;
  // Markdown table lines become a table (a graphicFrame holding a:tbl), as PowerPoint stores one
  const rows = tableRows(body.filter((l) => /^\|.*\|$/.test(l)).join('\n'));
  const cell = (t: string) => `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>${esc(t)}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;
  const frame = rows
    ? `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table 3"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr/>${rows.map((r) => `<a:tr h="0">${r.map(cell).join('')}</a:tr>`).join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
    : '';
  const text = rows ? body.filter((l) => !/^\|.*\|$/.test(l)) : body;
  return `<p:sld xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shape(2, 'Title 1', [title ?? ''])}${shape(3, 'Content 2', text)}${frame}</p:spTree></p:cSld></p:sld>`;
}

/**
 * PPTX with one slide per entry (first line = title). Slide parts are stored in
 * reverse file order (slide1.xml is the last slide shown) so readers must follow the
 * presentation's slide list, not file names. `notes[i]`: the paragraphs of slide i's notes
 * pane (a notesSlide part with its slide-number placeholder, as PowerPoint writes it).
 */
export function makePptx(slides: string[][], notes: (string[] | undefined)[] = []): Promise<Uint8Array> {
  const n = slides.length;
  const file = (i: number) => `slide${n - i}.xml`; // i = position in the show
  const files: Record<string, string> = {
    '[Content_Types].xml': `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>${slides
      .map((_, i) => `<Override PartName="/ppt/slides/${file(i)}" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`)
      .join('')}</Types>`,
    '_rels/.rels': `<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${R}/officeDocument" Target="ppt/presentation.xml"/></Relationships>`,
    'ppt/presentation.xml': `<p:presentation xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}"><p:sldIdLst>${slides
      .map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`)
      .join('')}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': `<Relationships xmlns="${RELS}">${slides
      .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${R}/slide" Target="slides/${file(i)}"/>`)
      .join('')}</Relationships>`,
  };
  slides.forEach((lines, i) => (files[`ppt/slides/${file(i)}`] = slideXml(lines)));
  notes.forEach((paras, i) => {
    if (!paras) return;
    const part = `notesSlide${i + 1}.xml`;
    files['[Content_Types].xml'] = files['[Content_Types].xml']!.replace('</Types>', `<Override PartName="/ppt/notesSlides/${part}" ContentType="application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml"/></Types>`);
    files[`ppt/slides/_rels/${file(i)}.rels`] = `<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${R}/notesSlide" Target="../notesSlides/${part}"/></Relationships>`;
    files[`ppt/notesSlides/${part}`] = slideXml(['', ...paras]).replace('<p:sld ', '<p:notes ').replace('</p:sld>', '</p:notes>').replace('</p:spTree>', `<p:sp><p:nvSpPr><p:cNvPr id="4" name="Slide Number"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:r><a:t>${i + 1}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree>`);
  });
  return zip(files);
}

/** Paragraphs of a Markdown fixture (blank-line separated, heading marks removed; a table's lines kept). */
export function markdownParagraphs(md: string): string[] {
  // (a table keeps its lines: makeDocx makes it a Word table)
  return md.split(/\n\s*\n/).map((b) => (tableRows(b) ? b.trim() : b.replace(/^#+\s*/gm, '').replace(/\s+/g, ' ').trim())).filter(Boolean);
}

/** Slides of a fixture whose slides are separated by lines of "---" (first line = title). */
export function markdownSlides(md: string): string[][] {
  return md.split(/\n---\n/).map((s) => s.split('\n').map((l) => l.replace(/^#+\s*/, '').trim()).filter(Boolean));
}
