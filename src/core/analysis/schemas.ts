/** zod shape of the item-analysis report (OpenAPI: ItemAnalysis). */
import { z } from '../zod.js';

const stat = (description: string) => z.number().nullable().openapi({ description });

export const itemStatisticsSchema = z.object({
  questionId: z.string(),
  number: z.number().int().openapi({ description: '1-based position in the exam' }),
  type: z.string(),
  marks: z.number(),
  prompt: z.string().optional(),
  candidates: z.number().int().openapi({ description: 'Candidates analysed on this item: those who were given it (an exam with sections gives candidates different questions); every statistic and share of the item counts only them' }),
  facilityIndex: stat('Mean score on the item as a share of its marks (0–1); for one-mark items the share who got it right'),
  discriminationIndex: stat('Mean item score (as a share of marks) of the top 27% of candidates by total minus that of the bottom 27% (−1 to 1)'),
  pointBiserial: stat('Corrected point-biserial: correlation of the item score with the total score minus this item'),
  options: z.array(
    z.object({ optionId: z.string(), keyLabel: z.string(), text: z.string().optional(), isCorrect: z.boolean(), count: z.number().int(), share: z.number().openapi({ description: 'count / candidates (0–1)' }) }),
  ),
  omitted: z.object({ count: z.number().int(), share: z.number() }),
  flags: z.array(z.string()).openapi({ description: 'Hints: possibly wrong key, weak or negative discrimination, distractors nobody chose' }),
});

export const examAnalysisSchema = z
  .object({
    examId: z.string(),
    examTitle: z.string(),
    generatedAt: z.string(),
    candidates: z.number().int().openapi({ description: 'Completed attempts analysed' }),
    items: z.number().int(),
    maxScore: z.number(),
    mean: stat('Mean total score'),
    standardDeviation: stat('Population standard deviation of total scores'),
    kr20: stat('KR-20 reliability (Cronbach’s alpha for items worth more than one mark); null with fewer than 2 items, no variance, or when candidates were given different questions'),
    groupSize: z.number().int().nullable().openapi({ description: 'Candidates in each of the upper and lower 27% groups' }),
    questions: z.array(itemStatisticsSchema),
  })
  .openapi('ItemAnalysis');
