/**
 * Problems of reading uploads (material, imports) in a job process, built on the
 * platform's ApiError so the shared onError turns them into RFC 7807 bodies like every
 * other error. The lanes' 503 and 429 are in job-slots.ts, an archive's 413/422 in
 * zip-limits.ts.
 */
import { ApiError, ServiceUnavailable } from '../platform/errors.js';
import { CHILD_RSS_LIMIT_MB } from './job-protocol.js';

/** 422: the material was read but holds no usable text (e.g. a scanned PDF with no text layer). */
export class UnusableMaterial extends ApiError {
  constructor(detail: string, extra: Record<string, unknown> = {}) {
    super(422, 'unusable-material', 'No usable text in the material', detail, { code: 'UNUSABLE_MATERIAL', ...extra });
  }
}

/** Debian packages that provide each external tool (docs/design.md §10: say what to install). */
export const TOOL_PACKAGES: Record<string, string> = {
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffmpeg',
  pocketsphinx: 'pocketsphinx pocketsphinx-en-us',
  pocketsphinx_continuous: 'pocketsphinx pocketsphinx-en-us',
};

/** 503 naming the missing tool and the Debian package that provides it. */
export function toolMissing(tool: string, why = 'is not installed on this server'): ServiceUnavailable {
  if (tool.startsWith('whisper')) {
    // Debian 12 has no whisper.cpp package: it is built from source (or taken from a newer distribution).
    return new ServiceUnavailable(
      `${tool} ${why}. Install whisper.cpp so that whisper-cli (or whisper-cpp) is on PATH, or unset CBT_WHISPER_MODEL to use pocketsphinx (sudo apt-get install pocketsphinx pocketsphinx-en-us).`,
      { code: 'TOOL_MISSING', tool, install: 'whisper.cpp (whisper-cli on PATH)' },
    );
  }
  const pkg = TOOL_PACKAGES[tool] ?? tool;
  return new ServiceUnavailable(
    `${tool} ${why}; audio and video need it. Install it with: sudo apt-get install ${pkg}`,
    { code: 'TOOL_MISSING', tool, install: `apt-get install ${pkg}` },
  );
}

/** 413 for a job whose child ran out of its heap or past its resident-memory limit (job-process.ts). */
export class TooHeavyToRead extends ApiError {
  constructor() {
    super(413, 'too-heavy-to-read', 'Too large to read', `Reading this file needs more memory than the server sets aside for one upload (${CHILD_RSS_LIMIT_MB} MB); split it or save it smaller.`, { code: 'TOO_HEAVY_TO_READ', limitMb: CHILD_RSS_LIMIT_MB });
  }
}

/** 422 for a job whose child crashed or ran out of time: the file's reading failed, the server did not. */
export class ReaderFailed extends ApiError {
  constructor(why: string) {
    super(422, 'reader-failed', 'The file could not be read', `Reading this file stopped: ${why}. Nothing was changed and the server is unaffected; try again, or save the file in another format.`, { code: 'READER_FAILED' });
  }
}
