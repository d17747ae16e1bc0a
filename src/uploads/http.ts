/** Small HTTP helpers of the import/export routes: downloads and upload error responses. */
import type { Context } from 'hono';
import type { AppEnv } from '../platform/deps.js';
import { errorResponses } from '../platform/openapi.js';

/** Error responses of upload routes (problem details like every error). */
export const uploadErrors = {
  ...errorResponses,
  413: { description: 'File larger than 10 MB; an .xlsx/.docx that would unpack to more than 100 MB or one part to more than 50 MB; or a file that needs more memory to read than one upload may use', content: errorResponses[400].content },
  415: { description: 'The bytes are not what the file claims to be (checked by magic bytes)', content: errorResponses[400].content },
  422: { description: 'An archive that is damaged or lies about its sizes', content: errorResponses[400].content },
  429: { description: 'This workspace already has 2 uploads being read or waiting in this lane (code UPLOAD_QUOTA); try again after Retry-After seconds', content: errorResponses[400].content },
  503: { description: 'Other uploads are being read and 4 wait (code BUSY); try again after Retry-After seconds', content: errorResponses[400].content },
};

/** Sends file bytes as a download. */
export function sendFile(c: Context<AppEnv>, bytes: Buffer | string, type: string, filename: string): Response {
  const safe = filename.replace(/[^\w.-]+/g, '_').slice(0, 120);
  return c.body(typeof bytes === 'string' ? bytes : new Uint8Array(bytes), 200, {
    'content-type': type,
    'content-disposition': `attachment; filename="${safe}"`,
    'cache-control': 'no-store',
  });
}

/** A file name from an exam title, e.g. "Mock_Exam_questions.xlsx". */
export const fileName = (title: string, suffix: string) => `${title.trim().replace(/\s+/g, '_') || 'exam'}_${suffix}`;

