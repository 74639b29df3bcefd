/**
 * The checker's sentences in English: `message` is the English rendering of
 * `words`, from the same catalogue the English page reads, so the two cannot drift.
 */
import checker from '../../messages/en/checker.json' with { type: 'json' };
import grading from '../../messages/en/grading.json' with { type: 'json' };
import refusals from '../../messages/en/refusals.json' with { type: 'json' };
import demos from '../../messages/en/demos.json' with { type: 'json' };
import judging from '../../messages/en/judging.json' with { type: 'json' };
import runNotes from '../../messages/en/runNotes.json' with { type: 'json' };
import history from '../../messages/en/history.json' with { type: 'json' };
import { render, words, type MessageKey, type Said, type WordValue, type Words } from '../words';

export const ENGLISH_WORDS = { checker, grading, refusals, demos, judging, runNotes, history } as const;

export function english(said: Words): string {
  return render(said, 'en', ENGLISH_WORDS);
}

/** A sentence of the catalogue as data and in English. */
export function say(key: MessageKey, values: Record<string, WordValue> = {}): Said {
  return sayWords(words(key, values));
}

/** Words already made (a sentence chosen by case), as data and in English. */
export function sayWords(w: Words): Said {
  return { message: english(w), words: w };
}

/** A check's one-line summary, in English and as data. */
export function summary(key: MessageKey, values: Record<string, WordValue> = {}): { summary: string; summaryWords: Words } {
  const w = words(key, values);
  return { summary: english(w), summaryWords: w };
}

/** A check's notes, in English and as data, one for one. */
export function notes(list: readonly Words[]): { notes: string[]; noteWords: Words[] } {
  return { notes: list.map(english), noteWords: [...list] };
}
