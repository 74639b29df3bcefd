/**
 * A lesson's words in the language "Check my solution" was asked in: the
 * failed hidden check's title, a probe's sentences, a command-trace rule's
 * why, the hint. Only words: the grader plays the English lesson's programs
 * and scenarios, so a grade is the same in every language. Each lesson is
 * localized once per language (lessons × languages at most, 8 × 3).
 */
import type { Locale } from '@/i18n/routing';
import type { Lesson } from '@/lib/lessons/load';

const localized = new WeakMap<Lesson, Map<Locale, Lesson>>();

export async function lessonIn(english: Lesson, locale: Locale): Promise<Lesson> {
  if (locale === 'en') return english;
  let byLocale = localized.get(english);
  if (!byLocale) localized.set(english, (byLocale = new Map()));
  let lesson = byLocale.get(locale);
  if (!lesson) {
    try {
      // Loaded with the first check asked in another language: it reads the translation's files (and its compiler checks programs).
      const { localizeLesson } = await import('@/lib/lessons/localize');
      lesson = localizeLesson(english, locale).lesson;
    } catch (error) {
      // A translation the build would have refused (lessons/tools, a test's own lesson): the English words still say it.
      console.warn(`lesson ${english.slug} in ${locale}: ${(error as Error).message}; its words stay English`);
      lesson = english;
    }
    byLocale.set(locale, lesson);
  }
  return lesson;
}
