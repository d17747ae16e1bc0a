/**
 * exceljs, loaded the first time a workbook is read or written. Importing it at start-up
 * cost ~29 MB of resident memory that a hall mid-exam never uses (issue 8 budget); the
 * module loader keeps the one instance once imported, so later calls reuse it.
 */
import type ExcelJSModule from 'exceljs';

type ExcelJs = typeof ExcelJSModule;

/** exceljs (the default export: `Workbook`, …); CommonJS arrives as the import's `default`. */
export function loadExcel(): Promise<ExcelJs> {
  return import('exceljs').then((m) => ((m as { default?: ExcelJs }).default ?? m) as ExcelJs);
}
