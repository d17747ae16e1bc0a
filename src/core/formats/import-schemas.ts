/**
 * zod shapes of the import/export routes: multipart forms (validated by the router's
 * hook → 400 problem) and JSON responses, which also describe them in /openapi.json.
 */
import { z } from '../zod.js';
import { questionInputSchema, storedQuestionSchema } from '../questions/schemas.js';
import { BANK_FORMATS } from './types.js';

const fileField = z.any().openapi({ type: 'string', format: 'binary' });
/** A multipart boolean: "true"/"1"/"on" mean true. */
export const isTrue = (v: string | undefined) => v === 'true' || v === '1' || v === 'on';

export const excelImportForm = z
  .object({
    file: fileField.openapi({ description: '.xlsx with a header row: Type, Prompt, Marks, Option A … Option F, Correct, Explanation, Section, MinWords, MaxWords, ModelAnswer' }),
    workspaceId: z.string().min(1).max(64),
    examId: z.string().min(1).max(64),
  })
  .openapi('ExcelImportForm');

export const bankImportForm = z
  .object({
    file: fileField.optional().openapi({ description: 'Aiken / GIFT / Moodle XML / past-paper Markdown / pasted-paper / QTI 3.0 item text file (or .docx holding such text), or a QTI 3.0 content package (.zip with imsmanifest.xml)' }),
    text: z.string().optional().openapi({ description: 'The question text itself, instead of a file' }),
    workspaceId: z.string().min(1).max(64),
    examId: z.string().min(1).max(64),
    format: z.enum(BANK_FORMATS).optional().openapi({ description: 'Detected from the text when absent' }),
    dryRun: z.string().max(5).optional().openapi({ description: 'true: parse and check only, store nothing (200)' }),
    skipInvalid: z.enum(['true', 'false']).optional().openapi({
      description:
        'true: store the valid questions and skip the invalid ones, each listed in `skipped` ({index, line, reason}) and its problems in `errors` ({index, line, path, message}); 400 when none is valid. Absent or false: all-or-nothing (one invalid question stores nothing). See docs/decisions.md, "Imports keep what is good, when asked".',
    }),
  })
  .openapi('QuestionBankImportForm');

export const rosterImportForm = z
  .object({ file: fileField.openapi({ description: 'CSV or .xlsx with columns studentId, candidateName, phone, and optionally extraTimePercent (0–200, "25" or "25%"), extraTimeMins (0–600) and subjects: the exam’s section names the candidate sits besides the compulsory ones, separated by ; , or | (an unknown name is refused)' }) })
  .openapi('RosterImportForm');

const warning = z.object({ index: z.number().int().optional(), line: z.number().int().optional(), row: z.number().int().optional(), message: z.string() });
const skipped = z.object({ index: z.number().int().optional(), line: z.number().int().optional(), reason: z.string() });

export const excelImportResponse = z.object({
  success: z.boolean(),
  examId: z.string(),
  created: z.number().int(),
  questions: z.array(storedQuestionSchema),
  warnings: z.array(warning),
});

export const bankImportResponse = z
  .object({
    success: z.boolean(),
    examId: z.string(),
    format: z.enum(BANK_FORMATS),
    dryRun: z.boolean(),
    created: z.number().int(),
    questions: z.array(z.union([storedQuestionSchema, questionInputSchema])).openapi({ description: 'Stored questions; on a dry run, the QuestionInputs that would be stored' }),
    warnings: z.array(warning).openapi({ description: 'Duplicate option texts, missing answers, images that cannot be fetched offline, lines of a pasted paper that could not be placed or were left out (with their line)…' }),
    skipped: z.array(skipped).openapi({ description: 'Source items that cannot become questions, with the reason' }),
    errors: z.array(z.record(z.string(), z.unknown())).optional().openapi({ description: 'Dry run: what storing would reject ({index, line, path, message}); when nothing is importable, that message first, then the skipped items by line (success is then false). With skipInvalid=true: the problems of the questions that were not stored (success stays true)' }),
  })
  .openapi('QuestionBankImportResult');

export const examIdParams = z.object({ id: z.string().min(1).max(64) });

/** A binary download response for OpenAPI. */
export const download = (mediaType: string, description: string) => ({ description, content: { [mediaType]: { schema: z.string().openapi({ format: 'binary' }) } } });

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
