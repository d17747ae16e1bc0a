/**
 * The `// hallcbt: {json}` comment HallCBT writes above each question of a GIFT export.
 * GIFT has no place for marks, sections, essay word bounds or rubrics; Moodle ignores
 * comments, and our reader applies this one so that export → import gives the same
 * questions. Unknown members are ignored (a later version may add some).
 */
import { z } from 'zod';

export const giftMetaSchema = z.object({
  type: z.enum(['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY', 'LONG_ESSAY']).optional(),
  marks: z.number().positive().optional(),
  section: z.string().optional(),
  minWords: z.number().int().nonnegative().optional(),
  maxWords: z.number().int().positive().optional(),
  rubric: z
    .object({
      name: z.string(),
      totalMarks: z.number(),
      criteria: z.array(z.object({ id: z.string().optional(), title: z.string(), maxMarks: z.number(), description: z.string().optional() })),
    })
    .optional(),
});

export type GiftMeta = z.infer<typeof giftMetaSchema>;
