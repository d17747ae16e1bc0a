/**
 * Upload checks and text decoding: magic bytes, UTF-16 and Windows-1252 text, and an
 * Aiken question bank inside a .docx (made here by writing the WordprocessingML parts
 * with jszip, read back through mammoth).
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { decodeText, requireText, requireXlsx, sniff } from '../../src/uploads/upload-file.js';
import { bankText } from '../../src/uploads/upload-jobs.js';
import { parseAiken } from '../../src/core/formats/aiken.js';
import { UnsupportedMediaType } from '../../src/platform/errors.js';

const bytes = (...b: number[]) => new Uint8Array(b);

describe('magic bytes', () => {
  it('tells zip, PDF, old Office, binary and text apart', () => {
    expect(sniff(bytes(0x50, 0x4b, 0x03, 0x04, 1))).toBe('zip');
    expect(sniff(new TextEncoder().encode('%PDF-1.7'))).toBe('pdf');
    expect(sniff(bytes(0xd0, 0xcf, 0x11, 0xe0))).toBe('ole');
    expect(sniff(bytes(0x41, 0x00, 0x42))).toBe('binary');
    expect(sniff(bytes(0xff, 0xfe, 0x41, 0x00))).toBe('text');
    expect(sniff(new TextEncoder().encode('Q?\nA. x'))).toBe('text');
  });

  it('refuses a claimed type the bytes contradict', () => {
    const text = { bytes: new TextEncoder().encode('a,b'), name: 'x.xlsx', ext: 'xlsx' };
    expect(() => requireXlsx(text)).toThrow(UnsupportedMediaType);
    expect(() => requireText({ ...text, name: 'x.csv', ext: 'csv' }, ['csv'])).not.toThrow();
    expect(() => requireText({ ...text, name: 'x.exe', ext: 'exe' }, ['csv'])).toThrow(/not accepted/);
    expect(() => requireText({ bytes: bytes(0x50, 0x4b, 0x03, 0x04), name: 'x.csv', ext: 'csv' }, ['csv'])).toThrow(/zip/);
  });
});

describe('text decoding', () => {
  it('reads UTF-8 (BOM dropped), UTF-16 with a BOM, and falls back to Windows-1252 with a note', () => {
    expect(decodeText(bytes(0xef, 0xbb, 0xbf, 0x43, 0x61, 0x66, 0xc3, 0xa9))).toEqual({ text: 'Café' });
    expect(decodeText(bytes(0xff, 0xfe, 0x43, 0x00, 0xe9, 0x00))).toEqual({ text: 'Cé' });
    const cp = decodeText(bytes(0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94));
    expect(cp.text).toBe('Café “q”');
    expect(cp.note).toMatch(/Windows-1252/);
  });
});

describe('.docx question banks', () => {
  it('extracts the paragraphs of a Word file and parses them as Aiken', async () => {
    const paras = ['What is the capital of Ghana?', 'A. Accra', 'B. Kumasi', 'ANSWER: A', 'Which is a mammal?', 'A. Shark', 'B. Whale', 'ANSWER: B'];
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
    zip.file('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
    zip.file('word/document.xml', `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paras.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`).join('')}</w:body></w:document>`);
    const docx = new Uint8Array(await zip.generateAsync({ type: 'uint8array' }));
    const { text } = await bankText({ bytes: docx, name: 'bank.docx', ext: 'docx' });
    const r = parseAiken(text);
    expect(r.questions.map((q) => [q.prompt, q.options!.find((o) => o.isCorrect)!.text])).toEqual([
      ['What is the capital of Ghana?', 'Accra'],
      ['Which is a mammal?', 'Whale'],
    ]);
    await expect(bankText({ bytes: new TextEncoder().encode('plain'), name: 'fake.docx', ext: 'docx' })).rejects.toThrow(UnsupportedMediaType);
  });
});
