/** Types for the `stopword` package (3.x ships none): the English list is all we use. */
declare module 'stopword' {
  /** English stop words, lower case. */
  export const eng: string[];
  /** Removes the words of `stopwords` (default English) from `tokens`. */
  export function removeStopwords(tokens: string[], stopwords?: string[]): string[];
}
