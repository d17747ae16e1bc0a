/**
 * Hostile uploads, built at run time (never committed): zip bombs shaped as .xlsx, .docx
 * and .pptx (one part that inflates to `inflatedMB` of text, ≈ 1 MB compressed per GB),
 * a "lying" .xlsx whose central directory declares 1 KB for a part that inflates to
 * `inflatedMB`, and a long plain-text file. Used by `npm run bench:uploads` and
 * test/security/upload-bombs.test.ts (issue 22 §1).
 */
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

const CHUNK = Buffer.alloc(1024 * 1024, 'a');

/** Deflates `mb` MB of repeated text as a stream: {data, size, crc}. */
export async function deflatedPayload(mb) {
  const z = createDeflateRaw({ level: 9, strategy: constants.Z_DEFAULT_STRATEGY });
  const out = [];
  z.on('data', (c) => out.push(c));
  const done = new Promise((resolve, reject) => {
    z.on('end', resolve);
    z.on('error', reject);
  });
  let crc = 0;
  for (let i = 0; i < mb; i++) {
    crc = crc32(CHUNK, crc);
    if (!z.write(CHUNK)) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  return { data: Buffer.concat(out), size: mb * CHUNK.length, crc };
}

/**
 * A zip of `entries`: {name, text} stored deflated honestly, or {name, payload, declare?}
 * with a payload from deflatedPayload (declare: the uncompressed size to claim instead).
 */
export function zipOf(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    let data, size, crc;
    if (e.payload) ({ data, size, crc } = e.payload);
    else {
      const raw = Buffer.from(e.text);
      data = deflateRawSyncSmall(raw);
      size = raw.length;
      crc = crc32(raw);
    }
    const declared = e.declare ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const deflateRawSyncSmall = (b) => deflateRawSync(b);

const CT = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

/**
 * The bombs. @param {number} inflatedMB what the big part inflates to (the bench: 1024; CI: 200)
 * @returns {Promise<{name: string, file: string, bytes: Buffer}[]>} name = what it is; file = a file name ending
 */
export async function buildBombs(inflatedMB) {
  const payload = await deflatedPayload(inflatedMB);
  const xlsx = zipOf([{ name: '[Content_Types].xml', text: CT }, { name: 'xl/workbook.xml', text: '<workbook/>' }, { name: 'xl/worksheets/sheet1.xml', payload }]);
  const docx = zipOf([{ name: '[Content_Types].xml', text: CT }, { name: 'word/document.xml', payload }]);
  const pptx = zipOf([{ name: '[Content_Types].xml', text: CT }, { name: 'ppt/presentation.xml', text: '<p:presentation/>' }, { name: 'ppt/slides/slide1.xml', payload }]);
  // declares 1 KB: passes a check of declared sizes, and only inflating tells the truth
  const lying = zipOf([{ name: '[Content_Types].xml', text: CT }, { name: 'word/document.xml', payload, declare: 1024 }, { name: 'xl/worksheets/sheet1.xml', payload, declare: 1024 }]);
  return [
    { name: `xlsx bomb (${payload.data.length} B → ${inflatedMB} MB)`, kind: 'zip', bytes: xlsx },
    { name: `docx bomb (${payload.data.length} B → ${inflatedMB} MB)`, kind: 'zip', bytes: docx },
    { name: `pptx bomb (${payload.data.length} B → ${inflatedMB} MB)`, kind: 'zip', bytes: pptx },
    { name: `lying zip (declares 1 KB per part, inflates to 2 × ${inflatedMB} MB)`, kind: 'zip', bytes: lying },
  ];
}

/** `mb` MB of plain-text paragraphs (the 39 MB .txt of issue 22). */
export function longText(mb) {
  const para = 'The mitochondrion is the powerhouse of the cell. It produces energy in the form of ATP through respiration, and the number of mitochondria in a cell depends on how much energy that cell needs.\n\n';
  return Buffer.from(para.repeat(Math.ceil((mb * 1024 * 1024) / para.length))).subarray(0, mb * 1024 * 1024);
}

/**
 * An honest .xlsx (within the archive limits, a few MB) whose sheet holds ~900,000 cells:
 * exceljs needs far more than the job process's heap to read it (issue 22 §1).
 * @returns {Buffer}
 */
export function heavyWorkbook() {
  const cells = Array.from({ length: 9 }, (_, i) => `<c r="${String.fromCharCode(65 + i)}R" t="inlineStr"><is><t>x</t></is></c>`).join('');
  const rows = [];
  for (let r = 1; r <= 100_000; r++) rows.push(`<row r="${r}">${cells.replaceAll('R"', `${r}"`)}</row>`);
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join('')}</sheetData></worksheet>`;
  const xlsx = zipOf([
    { name: '[Content_Types].xml', text: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>' },
    { name: '_rels/.rels', text: '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>' },
    { name: 'xl/workbook.xml', text: '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Questions" sheetId="1" r:id="rId1"/></sheets></workbook>' },
    { name: 'xl/_rels/workbook.xml.rels', text: '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>' },
    { name: 'xl/worksheets/sheet1.xml', text: sheet },
  ]);
  return xlsx;
}
