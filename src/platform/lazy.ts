/**
 * Heavy document libraries, loaded the first time a route needs them. Importing them at
 * start-up cost ~55 MB of resident memory (exceljs ~29 MB, mammoth ~15 MB, jszip ~11 MB)
 * that a hall mid-exam never uses, against the issue 8 budget of 300 MB RSS with 2,500
 * candidates (exceljs is loaded the same way, by core/formats/xlsx/excel.ts). The first
 * call pays the import (tens of milliseconds); later calls reuse it.
 */
import type MammothModule from 'mammoth';
import type JSZipModule from 'jszip';

type Mammoth = typeof MammothModule;
type JsZip = typeof JSZipModule;
type Unpdf = typeof import('unpdf');
/** CommonJS packages arrive as the `default` of a dynamic import. */
const cjs = <T>(m: unknown): T => ((m as { default?: T }).default ?? m) as T;

let mammoth: Promise<Mammoth> | undefined;
let jszip: Promise<JsZip> | undefined;
let unpdf: Promise<Unpdf> | undefined;

/** mammoth (.docx → text). */
export function loadMammoth(): Promise<Mammoth> {
  return (mammoth ??= import('mammoth').then((m) => cjs<Mammoth>(m)));
}

/** JSZip (.pptx, zip sniffing). */
export function loadJsZip(): Promise<JsZip> {
  return (jszip ??= import('jszip').then((m) => cjs<JsZip>(m)));
}

/** unpdf (PDF text). */
export function loadUnpdf(): Promise<Unpdf> {
  return (unpdf ??= import('unpdf'));
}
