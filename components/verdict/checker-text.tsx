/**
 * A sentence of the checker or the grader in the page's language: rendered
 * from its `words` with the page's catalogue, or as the server wrote it in
 * the page's language (`shown`: a lesson probe's sentence), or its English
 * `message` when there is neither (a run file from before) or no language is
 * set up around it (a unit test rendering a view on its own).
 */
import { useLocale, useMessages } from 'next-intl';
import { useCallback } from 'react';
import { render, type Words, type WordsCatalogue } from '@/lib/words';

export interface CheckerSaid {
  message: string;
  words?: Words | undefined;
  /** The sentence the server wrote in the language the page asked in (a probe's, from its lesson's translation). */
  shown?: string | undefined;
}

/** The page's language and catalogue, or null outside next-intl's provider. */
function usePageWords(): { locale: string; catalogue: WordsCatalogue } | null {
  // A component is always inside the provider or always outside it, so the hooks run the same way every render.
  try {
    return { locale: useLocale(), catalogue: useMessages() };
  } catch {
    return null;
  }
}

/** Writes checker sentences in the page's language. */
export function useCheckerText(): (said: CheckerSaid) => string {
  const page = usePageWords();
  const locale = page?.locale ?? null;
  const catalogue = page?.catalogue ?? null;
  // One function per language and catalogue: the timeline's layout is memoized on it.
  return useCallback(
    (said: CheckerSaid) => {
      // English is the message itself: the checker rendered it from the same catalogue.
      if (locale === null || catalogue === null || locale === 'en') return said.message;
      // Words the page's catalogue lacks (a lesson's probe): the server wrote them in the language the check asked for.
      if (!said.words) return said.shown ?? said.message;
      try {
        return render(said.words, locale, catalogue);
      } catch {
        // A key this page's catalogue lacks (a run file from a newer checker): the English still says it.
        return said.message;
      }
    },
    [locale, catalogue],
  );
}

export function CheckerText({ said }: { said: CheckerSaid }) {
  return <>{useCheckerText()(said)}</>;
}

/** Each note of a verdict's checks with its data, so a note shown on its own (a "fact") can be translated. */
export function noteSaids(checks: Iterable<{ notes: string[]; noteWords?: Words[] | undefined }>): Map<string, CheckerSaid> {
  const out = new Map<string, CheckerSaid>();
  for (const check of checks) check.notes.forEach((message, i) => out.set(message, { message, words: check.noteWords?.[i] }));
  return out;
}
