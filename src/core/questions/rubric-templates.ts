/**
 * Named rubric families an examiner can start from (docs/api-overview.md, "Question": WAEC, Cambridge,
 * STEM). Weights are fractions of the question's marks; the admin page scales them to
 * maxMarks so the criteria sum to the question's marks (docs/design.md §6).
 */
export const RUBRIC_TEMPLATES = [
  {
    family: 'WAEC',
    name: 'WAEC essay (content, organisation, expression, mechanical accuracy)',
    criteria: [
      { title: 'Content', weight: 0.4, description: 'Relevance and adequacy of ideas; answers the question asked.' },
      { title: 'Organisation', weight: 0.2, description: 'Logical paragraphing, introduction and conclusion, coherence.' },
      { title: 'Expression', weight: 0.3, description: 'Vocabulary, sentence structure and register suited to the task.' },
      { title: 'Mechanical accuracy', weight: 0.1, description: 'Grammar, spelling and punctuation.' },
    ],
  },
  {
    family: 'Cambridge',
    name: 'Cambridge levels (knowledge, application, analysis, evaluation)',
    criteria: [
      { title: 'Knowledge and understanding', weight: 0.3, description: 'Accurate, relevant knowledge of the topic.' },
      { title: 'Application', weight: 0.2, description: 'Knowledge applied to the context of the question.' },
      { title: 'Analysis', weight: 0.25, description: 'Developed chains of reasoning, causes and consequences.' },
      { title: 'Evaluation', weight: 0.25, description: 'Supported judgement and a justified conclusion.' },
    ],
  },
  {
    family: 'STEM',
    name: 'STEM problem solving (method, accuracy, units, communication)',
    criteria: [
      { title: 'Method', weight: 0.4, description: 'Correct principles, formulae and steps.' },
      { title: 'Accuracy', weight: 0.3, description: 'Correct working and final answer.' },
      { title: 'Units and notation', weight: 0.1, description: 'Correct units, symbols and significant figures.' },
      { title: 'Communication', weight: 0.2, description: 'Clear, ordered explanation of the reasoning.' },
    ],
  },
] as const;
